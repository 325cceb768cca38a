-- Argo CD health check for every cloud.svc.io kind (the same rules as kstatus:
-- what Flux `wait: true` and `kubectl wait` read). `obj` is the live object.
local hs = {}

local function condition(conditions, kind)
  if conditions == nil then return nil end
  for _, c in ipairs(conditions) do
    if c.type == kind then return c end
  end
  return nil
end

local function describe(c, fallback)
  if c == nil then return fallback end
  if c.message ~= nil and c.message ~= "" then return c.reason .. ": " .. c.message end
  return c.reason
end

local meta = obj.metadata or {}
local status = obj.status or {}
local conditions = status.conditions
local ready = condition(conditions, "Ready")

if meta.deletionTimestamp ~= nil then
  hs.status = "Progressing"
  hs.message = "Deleting: " .. describe(ready, "waiting for the operator to remove the external object")
  return hs
end

if meta.annotations ~= nil and meta.annotations["cloud.svc.io/paused"] == "true" then
  hs.status = "Suspended"
  hs.message = "Reconciliation is paused by the cloud.svc.io/paused annotation"
  return hs
end

if conditions == nil or status.observedGeneration == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to observe the resource"
  return hs
end

if meta.generation ~= nil and status.observedGeneration < meta.generation then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to observe generation " .. meta.generation
  return hs
end

local stalled = condition(conditions, "Stalled")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(stalled, "Stalled")
  return hs
end

-- A failing reconcile being retried (the service answered with an error).
local synced = condition(conditions, "Synced")
if synced ~= nil and synced.status == "False" and synced.reason == "ReconcileError" then
  hs.status = "Degraded"
  hs.message = describe(synced, "ReconcileError")
  return hs
end

local reconciling = condition(conditions, "Reconciling")
if reconciling ~= nil and reconciling.status == "True" then
  hs.status = "Progressing"
  hs.message = describe(reconciling, "Reconciling")
  return hs
end

if ready ~= nil and ready.status == "True" then
  hs.status = "Healthy"
  hs.message = describe(ready, "Ready")
  return hs
end

hs.status = "Progressing"
hs.message = describe(ready, "Waiting for the Ready condition")
return hs
