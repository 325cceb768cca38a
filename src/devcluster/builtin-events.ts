/**
 * Events, served as core/v1 and events.k8s.io/v1 from one storage (core's field names): their
 * validation, renames, the fields their Go types always carry, and their managed-fields shape.
 */
import type { FieldError } from "./errors.ts";
import { METADATA_SHAPE, type Shape } from "./fieldset.ts";
import { isObj, type Obj, qualifiedNameErrors } from "./meta.ts";
import type { ResourceType } from "./types.ts";

type EventType = Partial<ResourceType> & Pick<ResourceType, "group" | "resource" | "kind">;

const NAME_FIELDS = ["metadata.name", "metadata.namespace"];

/** events.k8s.io/v1 field names for the core/v1 Event fields stored here. */
const EVENT_RENAMES: [core: string, events: string][] = [
  ["involvedObject", "regarding"],
  ["message", "note"],
  ["source", "deprecatedSource"],
  ["firstTimestamp", "deprecatedFirstTimestamp"],
  ["lastTimestamp", "deprecatedLastTimestamp"],
  ["count", "deprecatedCount"],
  ["reportingComponent", "reportingController"],
];

function rename(object: Obj, pairs: [string, string][]): Obj {
  const out: Obj = { ...object };
  for (const [from, to] of pairs) {
    if (Object.hasOwn(out, from)) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

/** What core/v1's Event always serializes: its structs, its times (null), two strings without omitempty. */
const CORE_ZERO: Obj = {
  involvedObject: {},
  source: {},
  firstTimestamp: null,
  lastTimestamp: null,
  eventTime: null,
  reportingComponent: "",
  reportingInstance: "",
};

/** The served events.k8s.io/v1 form: renamed, and its reporting fields left out when empty (omitempty there). */
function toEventsV1(object: Obj): Obj {
  const served = rename(object, EVENT_RENAMES);
  for (const field of ["reportingController", "reportingInstance"])
    if (served[field] === "") delete served[field];
  return served;
}

/** An ObjectReference is one value to server-side apply (structType=atomic). */
const coreShape: Shape = {
  properties: { metadata: METADATA_SHAPE, involvedObject: { atomic: true }, related: { atomic: true } },
};
const eventsV1Shape: Shape = {
  properties: { metadata: METADATA_SHAPE, regarding: { atomic: true }, related: { atomic: true } },
};

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

/**
 * ValidateEventCreate / legacyValidateEvent: the involved object's namespace is the event's (an
 * event about a cluster-scoped object lives in `default`); an event with an eventTime names who
 * reported it and what happened; one created through events.k8s.io/v1 must have an eventTime and
 * a type, and none of the deprecated fields.
 */
function eventErrors(object: Obj, old: Obj | undefined, api: "core" | "events"): FieldError[] {
  const errors: FieldError[] = [];
  const str = (field: string) => (typeof object[field] === "string" ? (object[field] as string) : "");
  const involved = isObj(object.involvedObject) ? object.involvedObject : {};
  const namespace = String((object.metadata as Obj).namespace ?? "");
  const involvedNamespace = typeof involved.namespace === "string" ? involved.namespace : "";
  const mismatch = (): FieldError => ({
    type: "FieldValueInvalid",
    field: "involvedObject.namespace",
    value: involvedNamespace,
    detail: "does not match event.namespace",
  });
  const invalid = (field: string, detail: string): FieldError => ({
    type: "FieldValueInvalid",
    field,
    value: "",
    detail,
  });
  const required = (field: string): FieldError => ({ type: "FieldValueRequired", field, detail: "" });
  if (object.eventTime === null || object.eventTime === undefined) {
    const ok =
      involvedNamespace === ""
        ? namespace === "" || namespace === "default"
        : involvedNamespace === namespace;
    if (!ok) errors.push(mismatch());
  } else {
    if (involvedNamespace === "" && namespace !== "default" && namespace !== "kube-system")
      errors.push(mismatch());
    const controllerField = api === "core" ? "reportingComponent" : "reportingController";
    if (str("reportingComponent") === "") errors.push(required(controllerField));
    for (const detail of qualifiedNameErrors(str("reportingComponent")))
      errors.push({
        type: "FieldValueInvalid",
        field: controllerField,
        value: str("reportingComponent"),
        detail,
      });
    for (const field of ["reportingInstance", "action", "reason"] as const) {
      if (str(field) === "") errors.push(required(field));
      if (str(field).length > LIMITS[field])
        errors.push(invalid(field, `can have at most ${LIMITS[field]} characters`));
    }
    if (str("message").length > LIMITS.message)
      errors.push(invalid("message", `can have at most ${LIMITS.message} characters`));
  }
  if (api === "core" || old) return errors;
  if (object.eventTime === null || object.eventTime === undefined) errors.push(required("eventTime"));
  if (object.type !== "Normal" && object.type !== "Warning")
    errors.push(invalid("type", `has invalid value: ${str("type")}`));
  for (const field of ["firstTimestamp", "lastTimestamp"])
    if (object[field] !== null && object[field] !== undefined)
      errors.push(invalid(field, "needs to be unset"));
  if (typeof object.count === "number" && object.count !== 0)
    errors.push(invalid("count", "needs to be unset"));
  const source = isObj(object.source) ? object.source : {};
  if (source.component || source.host) errors.push(invalid("source", "needs to be unset"));
  return errors;
}

/** core/v1 Events. */
export const CORE_EVENTS: EventType = {
  group: "",
  resource: "events",
  kind: "Event",
  shortNames: ["ev"],
  storageKey: "events",
  zero: CORE_ZERO,
  shape: () => coreShape,
  normalize: (object, old) => eventErrors(object, old, "core"),
  fieldSelectors: [
    ...NAME_FIELDS,
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
  ],
};

/** events.k8s.io/v1 Events: the same objects under their new names. */
export const EVENTS_V1_EVENTS: EventType = {
  group: "events.k8s.io",
  resource: "events",
  kind: "Event",
  shortNames: ["ev"],
  storageKey: "events",
  storageVersion: "v1",
  zero: CORE_ZERO,
  shape: () => eventsV1Shape,
  normalize: (object, old) => eventErrors(object, old, "events"),
  fieldSelectors: [
    ...NAME_FIELDS,
    "regarding.kind",
    "regarding.name",
    "regarding.namespace",
    "reason",
    "type",
  ],
  toServed: toEventsV1,
  fromServed: (object) =>
    rename(
      object,
      EVENT_RENAMES.map(([a, b]) => [b, a]),
    ),
};
