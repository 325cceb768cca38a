/**
 * The simulator's resource modules. To add a resource:
 *
 * 1. Create `src/simulator/resources/<resource>.ts` exporting a module made with
 *    `defineResource({ name, collections, defaultSeed?, register })` (see ../resource.ts):
 *    - `collections`: `{ <collection name>: zodSchema }` for every store collection the module
 *      owns. Records are plain JSON-serializable objects with a string `id`; timestamps are
 *      epoch ms (use `seedTimestamp`, `seedId` from ../seed.ts; give fields `.default()`s so
 *      YAML seed files can be short). Seed files (`--seed FILE`) are validated with them.
 *    - `defaultSeed`: `() => ({ <collection>: [records] })`, merged into the default seed.
 *    - `register(sim)`: `sim.route({ method, path, access, handler })` for each operation.
 *      `path` is a template (`/api/clouds/:cloud_id/volumes/:id`); the `.json`/`.xml` suffix,
 *      404/405/406, version header, auth, roles, faults, stats and logging are the framework's.
 *      `access`: `access.anyOf("observer", "instance")`, `access.withSettings(["actor"],
 *      ["premium_deployments"])` or `access.public` (from ../roles.ts).
 *      A collection whose index and show are the plain ones (scope check, view `default`,
 *      filters) can use `scopedRoutes` (../scoped-routes.ts) and write only its create and
 *      update, and its destroy when that does more than delete the object.
 * 2. In `handler(ctx)` (ctx is a RequestContext, ../context.ts):
 *    - read: `ctx.param("id")`, `ctx.params` (query+body merged, brackets nested),
 *      `ctx.validate<T>(spec)` (declarative rules, ../validate.ts: 400 `ParameterError: x[y] is required`),
 *      `ctx.view(["default", "extended"])`, `ctx.filter(objects, filterSpec)` (../filters.ts).
 *    - look up: `ctx.store.collection<R>("name").require(id, "Label")` (422 ResourceNotFound),
 *      `resolveHref(store, "param[name]", href, {template, collection, label})` (../hrefs.ts).
 *    - fail with the helpers of ../errors.ts (`parameterError`, `actionNotAllowed`, ...);
 *      validate everything BEFORE mutating the store (rejected calls change nothing).
 *    - answer: `ctx.one(type, rep)`, `ctx.many(type, plural, reps)`, `ctx.created(href)`
 *      (201 + relative Location; pass `{type, representation}` to also return the object),
 *      `ctx.noContent()`, `ctx.raw(status, contentType, body)`.
 *    - representations: plain objects built with `link`, `actions`, `formatTimestamp`
 *      (../representation.ts); JSON and XML both come from the same object.
 * 3. Add ONE import and ONE list entry below (keep the list order: a module's routes may not
 *    clash with another's; seed records are inserted in list order).
 * 4. Tests: test/simulator/<resource>.test.ts with the harness in test/simulator/harness.ts.
 */
import type { ResourceModule } from "../resource.ts";
import { accountsResource } from "./accounts.ts";
import { alertSpecs } from "./alert-specs.ts";
import { auditEntries } from "./audit-entries.ts";
import { cloudsResource } from "./clouds.ts";
import { deploymentsResource } from "./deployments.ts";
import { inputsResource } from "./inputs.ts";
import { ipAddressBindingsResource } from "./ip-address-bindings.ts";
import { ipAddressesResource } from "./ip-addresses.ts";
import { linkTargetsResource } from "./link-targets.ts";
import { linkedResource } from "./linked.ts";
import { monitoringMetrics } from "./monitoring-metrics.ts";
import { networkGatewaysResource } from "./network-gateways.ts";
import { networksResource } from "./networks.ts";
import { permissionsResource } from "./permissions.ts";
import { recurringVolumeAttachmentsResource } from "./recurring-volume-attachments.ts";
import { resourceGroupsResource } from "./resource-groups.ts";
import { routeTablesResource } from "./route-tables.ts";
import { routesResource } from "./routes.ts";
import { sessionsResource } from "./sessions.ts";
import { storedScriptAttachments } from "./stored-script-attachments.ts";
import { subnetsResource } from "./subnets.ts";
import { volumesResource } from "./volumes.ts";

export const resources: ResourceModule[] = [
  accountsResource,
  sessionsResource,
  permissionsResource,
  deploymentsResource,
  cloudsResource,
  linkedResource,
  inputsResource,
  alertSpecs,
  auditEntries,
  storedScriptAttachments,
  monitoringMetrics,
  networksResource,
  routeTablesResource,
  subnetsResource,
  networkGatewaysResource,
  routesResource,
  volumesResource,
  recurringVolumeAttachmentsResource,
  ipAddressesResource,
  ipAddressBindingsResource,
  resourceGroupsResource,
  linkTargetsResource,
];
