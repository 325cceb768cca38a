import type { ServiceApi } from "../../api/index.ts";
import type { Deployment } from "../../api/resources/deployments.ts";
import type { FieldDiff, ManagedKind, ObjectMeta } from "../../runtime/sdk/index.ts";
import { hrefLinks, InvalidSpecError } from "../../runtime/sdk/index.ts";
import { formatInputValue, parseInputValue } from "../../service-model/index.ts";
import { orUndefined } from "../shared/observe.ts";
import { FieldTable, rows } from "../shared/table.ts";
import { type DeploymentSpec, deploymentSpecSchema } from "./schema.ts";

/** The deployment as the service shows it (view inputs_2_0). */
export interface DeploymentObserved {
  href: string;
  name: string;
  description: string | null;
  locked: boolean;
  server_tag_scope?: string | null;
  /** The `resource_group` link; undefined when the deployment has none. */
  resourceGroupHref?: string;
  inputs?: { name: string; value: string }[];
  links?: { rel: string; href: string }[];
  actions?: { rel: string }[];
}

/** Desired API state: the create/update fields, the lock state and the inputs. */
export interface DeploymentDesired {
  name: string;
  description?: string;
  serverTagScope?: "deployment" | "account";
  resourceGroupHref?: string;
  /** Set when the spec names the resource group by reference (differences are reported under it). */
  resourceGroupField?: "resourceGroupRef";
  locked: boolean;
  inputs?: Record<string, string>;
}

/** The calls this kind makes; `deploymentApi()` adapts the service client to it. */
export interface DeploymentApi {
  show(href: string): Promise<DeploymentObserved | undefined>;
  /** `wanted`: only those deployments are needed (ManagedKind.index.list); others may be left out. */
  index(filters?: Record<string, string>, wanted?: ReadonlySet<string>): Promise<DeploymentObserved[]>;
  create(params: Record<string, string>): Promise<string>;
  update(href: string, params: Record<string, string>): Promise<void>;
  lock(href: string): Promise<void>;
  unlock(href: string): Promise<void>;
  multiUpdateInputs(href: string, inputs: Record<string, string>): Promise<void>;
  destroy(href: string): Promise<void>;
}

const VIEW = "inputs_2_0";

/**
 * The deployment's fields; the resource group is read from the `resource_group` link (the real
 * deployment media type declares it; create and update take `resource_group_href`). The lock is
 * compared here and set by the kind's own lock and unlock calls; inputs are the kind's own too.
 */
export const deploymentFields = new FieldTable<DeploymentDesired, DeploymentObserved>([
  rows.name(),
  rows.description(),
  {
    spec: "serverTagScope",
    param: "server_tag_scope",
    attribute: "server_tag_scope",
    observed: "server_tag_scope",
    at: "serverTagScope",
    write: "update",
  },
  {
    spec: "resourceGroupHref",
    from: (d) => d.resourceGroupField ?? "resourceGroupHref",
    param: "resource_group_href",
    link: "resource_group",
    write: "update",
  },
  { spec: "locked", attribute: "locked", write: "kind" },
]);

function toObserved(d: Deployment): DeploymentObserved {
  return deploymentFields.observe(d, {
    inputs: d.inputs?.map((i) => ({ name: i.name, value: i.value })),
    links: d.links.map((l) => ({ rel: l.rel, href: l.href ?? "" })),
  });
}

/** The service client's deployment and inputs functions as this kind uses them. */
export function deploymentApi(api: ServiceApi): DeploymentApi {
  return {
    show: async (href) => {
      const d = await orUndefined(api.deployments.show(href, { view: VIEW }));
      return d && toObserved(d);
    },
    index: async (filters, wanted) =>
      (await api.deployments.index({ view: VIEW, filter: filters, wanted })).map(toObserved),
    create: (params) => api.deployments.create(params as { name: string }),
    update: (href, params) => api.deployments.update(href, params),
    lock: (href) => api.deployments.lock(href),
    unlock: (href) => api.deployments.unlock(href),
    multiUpdateInputs: (href, inputs) => api.inputs.multiUpdate(href, inputs),
    destroy: (href) => api.deployments.destroy(href),
  };
}

/** What the kind is given: anything with the deployment calls (the service client, or a fake in tests). */
export interface DeploymentClient {
  deployments: DeploymentApi;
}

/** Adapts the service client once per call site; a fake DeploymentClient passes through. */
function calls(client: DeploymentClient | ServiceApi): DeploymentApi {
  return "client" in client ? deploymentApi(client as ServiceApi) : client.deployments;
}

/** One spelling per value so that `blank`/`text:` and the ignore spellings compare equal. */
export function normalizeInput(name: string, value: string): string {
  const parsed = parseInputValue(name, value, "2.0");
  if (!parsed.ok) return value;
  const v = parsed.value;
  if (v.type === "inherit") return "ignore";
  if (v.type === "text" && v.value === "") return "blank";
  return formatInputValue(v);
}

export function desiredDeployment(
  spec: DeploymentSpec,
  meta: Pick<ObjectMeta, "name">,
  resourceGroupRefHref?: string,
): DeploymentDesired {
  const d: DeploymentDesired = { name: spec.name ?? meta.name, locked: spec.locked };
  if (spec.description !== undefined) d.description = spec.description;
  if (spec.serverTagScope !== undefined) d.serverTagScope = spec.serverTagScope;
  const group = spec.resourceGroupHref ?? resourceGroupRefHref;
  if (group !== undefined) d.resourceGroupHref = group;
  if (spec.resourceGroupRef !== undefined) d.resourceGroupField = "resourceGroupRef";
  if (spec.inputs !== undefined) d.inputs = spec.inputs;
  return d;
}

/**
 * Pure diff by spec field: the table's rows, then the inputs, compared only for names the
 * deployment has (multi_update ignores unknown names).
 */
export function diffDeployment(desired: DeploymentDesired, observed: DeploymentObserved): FieldDiff[] {
  const out = deploymentFields.diff(desired, observed);
  const changed = inputChanges(desired, observed);
  if (Object.keys(changed).length > 0) {
    const before: Record<string, string> = {};
    for (const i of observed.inputs ?? []) if (i.name in changed) before[i.name] = i.value;
    out.push({ field: "inputs", desired: changed, observed: before });
  }
  return out;
}

/** The desired inputs whose value differs from what the deployment holds. */
export function inputChanges(
  desired: DeploymentDesired,
  observed: DeploymentObserved,
): Record<string, string> {
  const changed: Record<string, string> = {};
  if (!desired.inputs) return changed;
  const current = new Map((observed.inputs ?? []).map((i) => [i.name, normalizeInput(i.name, i.value)]));
  for (const [name, value] of Object.entries(desired.inputs)) {
    const have = current.get(name);
    if (have !== undefined && have !== normalizeInput(name, value)) changed[name] = value;
  }
  return changed;
}

/** Most input names a warning lists. */
const NAMES_LISTED = 10;

export const Message = {
  inputsIgnored: (names: string[]) =>
    `spec.inputs: the deployment has no input named ${
      names.length <= NAMES_LISTED
        ? names.join(", ")
        : `${names.slice(0, NAMES_LISTED).join(", ")} and ${names.length - NAMES_LISTED} more`
    }, and the service ignores inputs a deployment does not have; check the names, or remove them from spec.inputs`,
} as const;

/**
 * Pure: the spec's input names the deployment does not have, which multi_update ignores (spec
 * 4.13): they never take effect, and the user must hear it (ManagedKind.warnings).
 */
export function ignoredInputs(desired: DeploymentDesired, observed: DeploymentObserved): string[] {
  if (!desired.inputs || !observed.inputs) return [];
  const have = new Set(observed.inputs.map((i) => i.name));
  return Object.keys(desired.inputs)
    .filter((name) => !have.has(name))
    .sort();
}

export function deploymentWarnings(desired: DeploymentDesired, observed: DeploymentObserved): string[] {
  const names = ignoredInputs(desired, observed);
  return names.length === 0 ? [] : [Message.inputsIgnored(names)];
}

export function deploymentAtProvider(o: DeploymentObserved): Record<string, unknown> {
  const at = deploymentFields.atProvider(o);
  if (o.inputs) at.inputs = Object.fromEntries(o.inputs.map((i) => [i.name, i.value]));
  return at;
}

/** The PUT parameters for the fields that differ (one call, only changed fields). */
export const updateParams = (diff: FieldDiff[], desired: DeploymentDesired) =>
  deploymentFields.updateParams<Record<string, string>>(diff, desired);

export const createParams = (desired: DeploymentDesired) =>
  deploymentFields.createParams<Record<string, string>>(desired);

export const deploymentKind: ManagedKind<
  DeploymentSpec,
  DeploymentDesired,
  DeploymentObserved,
  DeploymentClient
> = {
  kind: "Deployment",
  plural: "deployments",
  singular: "deployment",
  shortNames: ["svcdep"],
  description:
    "A deployment of the cloud-management service: a logical grouping of servers and server arrays, with its lock state and inputs.",
  schema: deploymentSpecSchema,
  printerColumns: [
    {
      name: "Locked",
      type: "boolean",
      jsonPath: ".status.atProvider.locked",
      description: "Lock state the service reports",
    },
  ],
  references: (spec) =>
    spec.resourceGroupRef
      ? [{ field: "resourceGroupRef", kind: "ResourceGroup", name: spec.resourceGroupRef.name }]
      : [],
  links: (spec) => hrefLinks(spec, ["resourceGroupHref"]),
  validate(spec) {
    for (const [name, value] of Object.entries(spec.inputs ?? {})) {
      const parsed = parseInputValue(name, value, "2.0");
      if (!parsed.ok) throw new InvalidSpecError(`inputs.${name}`, parsed.error.message);
    }
  },
  desired: (spec, ctx) => desiredDeployment(spec, ctx.meta, ctx.refs.resourceGroupRef?.href),
  observe: (client, href) => calls(client).show(href),
  async lookup(client, desired) {
    const found = await calls(client).index({ name: desired.name });
    // The name filter is a substring match; the service keeps names unique per account.
    return found.filter((d) => d.name === desired.name);
  },
  hrefOf: (o) => o.href,
  async create(client, desired) {
    const href = await calls(client).create(createParams(desired));
    // Lock state and inputs are applied by the update that follows the first observation.
    return href;
  },
  async update(client, href, desired, observed, diff) {
    const fields = new Set(diff.map((d) => d.field));
    const params = updateParams(diff, desired);
    if (Object.keys(params).length > 0) await calls(client).update(href, params);
    if (fields.has("inputs")) await calls(client).multiUpdateInputs(href, inputChanges(desired, observed));
    if (fields.has("locked")) {
      if (desired.locked) await calls(client).lock(href);
      else await calls(client).unlock(href);
    }
  },
  async delete(client, href, observed) {
    // A locked deployment cannot be destroyed (422 ActionNotAllowed).
    if (observed.locked) await calls(client).unlock(href);
    await calls(client).destroy(href);
  },
  diff: diffDeployment,
  warnings: deploymentWarnings,
  atProvider: deploymentAtProvider,
  index: {
    scope: () => "",
    list: (client, _scope, wanted) => calls(client).index(undefined, wanted),
  },
};
