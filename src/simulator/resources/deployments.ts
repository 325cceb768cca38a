import * as z from "zod";
import { parseInputValue, renderInputValue } from "../../service-model/index.ts";
import type { RequestContext } from "../context.ts";
import { actionNotAllowed, SimError } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { resolveHref } from "../hrefs.ts";
import { actions, link, type Representation } from "../representation.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";
import { seedDeployments } from "../seed-data.ts";
import type { Store } from "../store.ts";
import type { ParamSpec } from "../validate.ts";

/** An input as stored: the value in the 2.0 notation (`text:x`, `blank`, `ignore`, `cred:X`, ...). */
export const storedInputSchema = z.object({ name: z.string().min(1), value: z.string() });
export type StoredInput = z.infer<typeof storedInputSchema>;

export const deploymentSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    description: z.string().nullable().default(null),
    server_tag_scope: z.enum(["deployment", "account"]).default("deployment"),
    locked: z.boolean().default(false),
    /** The user who locked it (its `lock_user` link); null when unlocked or unknown. */
    lock_user_id: seedId.nullable().default(null),
    resource_group_href: z.string().nullable().default(null),
    inputs: z.array(storedInputSchema).default([]),
    created_at: seedTimestamp.default(SEED_TIME_MS),
    updated_at: seedTimestamp.default(SEED_TIME_MS),
  })
  .strict();
export type DeploymentRecord = z.output<typeof deploymentSchema>;

export const deploymentHref = (id: string) => `/api/deployments/${id}`;
const DEPLOYMENT_VIEWS = ["default", "inputs", "inputs_2_0"] as const;
type DeploymentView = (typeof DEPLOYMENT_VIEWS)[number];

/** The real service's body for a duplicate name: a JSON array of [field, message] pairs. */
export const DUPLICATE_NAME_BODY = JSON.stringify([
  ["name", "A deployment with this name already exists. Please enter a different name."],
]);

function duplicateName(): SimError {
  return new SimError(422, null, DUPLICATE_NAME_BODY, { contentType: "application/json; charset=utf-8" });
}

/** Renders stored inputs for a view: `inputs` shows unset as `text:`, `inputs_2_0` as `blank`. */
export function renderInputs(inputs: StoredInput[], view: "default" | "inputs" | "inputs_2_0") {
  return inputs.map((input) => {
    const parsed = parseInputValue(input.name, input.value, "2.0");
    return { name: input.name, value: parsed.ok ? renderInputValue(parsed.value, view) : input.value };
  });
}

export function deploymentRepresentation(d: DeploymentRecord, view: DeploymentView): Representation {
  const href = deploymentHref(d.id);
  // In the reference's order: inputs and lock_user come before self.
  const links = [link("inputs", `${href}/inputs`)];
  if (d.locked && d.lock_user_id) links.push(link("lock_user", `/api/users/${d.lock_user_id}`));
  links.push(
    link("self", href),
    link("servers", `${href}/servers`),
    link("server_arrays", `${href}/server_arrays`),
    link("alerts", `${href}/alerts`),
  );
  if (d.resource_group_href) links.push(link("resource_group", d.resource_group_href));
  const rep: Representation = {
    name: d.name,
    description: d.description,
    locked: d.locked,
    server_tag_scope: d.server_tag_scope,
    links,
    actions: d.locked ? actions("clone", "unlock") : actions("clone", "lock"),
  };
  if (view !== "default") rep.inputs = renderInputs(d.inputs, view);
  return rep;
}

const FILTERS: FilterSpec<DeploymentRecord> = {
  description: { partial: true, get: (d) => d.description },
  name: { partial: true, get: (d) => d.name },
  resource_group_href: { partial: false, get: (d) => d.resource_group_href },
  server_tag_scope: { partial: true, get: (d) => d.server_tag_scope },
};

const RESOURCE_GROUP = {
  template: "/api/resource_groups/:id",
  collection: "resource_groups",
  label: "ResourceGroup",
};

const createSpec: ParamSpec = {
  deployment: {
    type: "Hash",
    required: true,
    blank: false,
    members: {
      name: { type: "String", required: true, blank: false },
      description: { type: "String" },
      resource_group_href: { type: "String", blank: false },
      server_tag_scope: { type: "String", values: ["deployment", "account"] },
    },
  },
};

const updateSpec: ParamSpec = {
  deployment: {
    type: "Hash",
    required: true,
    blank: false,
    members: {
      name: { type: "String", blank: false },
      description: { type: "String" },
      resource_group_href: { type: "String", blank: false },
      server_tag_scope: { type: "String", values: ["deployment", "account"] },
    },
  },
};

const cloneSpec: ParamSpec = {
  deployment: {
    type: "Hash",
    members: {
      name: { type: "String", blank: false },
      description: { type: "String" },
      server_tag_scope: { type: "String", values: ["deployment", "account"] },
    },
  },
};

interface DeploymentFields {
  name?: string;
  description?: string;
  resource_group_href?: string;
  server_tag_scope?: "deployment" | "account";
}

const deployments = (store: Store) => store.collection<DeploymentRecord>("deployments");

function nameTaken(store: Store, name: string, except?: string): boolean {
  return deployments(store).find((d) => d.name === name && d.id !== except) !== undefined;
}

/** Clone name: `<name> v2`, or the next free `<name> vN` (names are unique per account). */
export function cloneName(store: Store, source: string): string {
  const base = source.replace(/ v\d+$/, "");
  for (let n = 2; ; n++) {
    const candidate = `${base} v${n}`;
    if (!nameTaken(store, candidate)) return candidate;
  }
}

/**
 * The inputs a deployment created through the API starts with: those of the server templates
 * the seed marks `for_new_deployments` (none in the default seed), each with the template's
 * value, the first template naming an input winning. The real service gives a deployment the
 * inputs of its servers' templates; servers cannot be created through the API, so a seed marks
 * the templates a new deployment's servers would run.
 */
function newDeploymentInputs(store: Store): StoredInput[] {
  const byName = new Map<string, StoredInput>();
  const templates = store.collection<{ id: string; inputs?: StoredInput[]; for_new_deployments?: boolean }>(
    "server_templates",
  );
  for (const template of templates.values())
    if (template.for_new_deployments)
      for (const input of template.inputs ?? [])
        if (!byName.has(input.name)) byName.set(input.name, { ...input });
  return [...byName.values()];
}

function load(ctx: RequestContext): DeploymentRecord {
  return deployments(ctx.store).require(ctx.param("id"), "Deployment");
}

export const deploymentsResource = defineResource({
  name: "deployments",
  collections: { deployments: deploymentSchema },
  defaultSeed: seedDeployments,
  register(sim) {
    const read = access.anyOf("observer");
    const write = access.withSettings(["actor"], ["premium_deployments"]);

    sim.route({
      method: "GET",
      path: "/api/deployments",
      access: read,
      handler(ctx) {
        const view = ctx.view(DEPLOYMENT_VIEWS);
        const list = ctx.filter(deployments(ctx.store).values(), FILTERS);
        return ctx.many(
          "deployment",
          "deployments",
          list.map((d) => deploymentRepresentation(d, view)),
        );
      },
    });

    sim.route({
      method: "GET",
      path: "/api/deployments/:id",
      access: read,
      handler(ctx) {
        const view = ctx.view(DEPLOYMENT_VIEWS);
        return ctx.one("deployment", deploymentRepresentation(load(ctx), view));
      },
    });

    sim.route({
      method: "POST",
      path: "/api/deployments",
      access: write,
      handler(ctx) {
        const { deployment: fields } = ctx.validate<{
          deployment: Required<Pick<DeploymentFields, "name">> & DeploymentFields;
        }>(createSpec);
        if (fields.resource_group_href)
          resolveHref(
            ctx.store,
            "deployment[resource_group_href]",
            fields.resource_group_href,
            RESOURCE_GROUP,
          );
        if (nameTaken(ctx.store, fields.name)) throw duplicateName();
        const now = ctx.clock.now();
        const created = deployments(ctx.store).insert({
          name: fields.name,
          description: fields.description ?? null,
          server_tag_scope: fields.server_tag_scope || "deployment",
          locked: false,
          lock_user_id: null,
          resource_group_href: fields.resource_group_href ?? null,
          inputs: newDeploymentInputs(ctx.store),
          created_at: now,
          updated_at: now,
        });
        return ctx.created(deploymentHref(created.id));
      },
    });

    sim.route({
      method: "PUT",
      path: "/api/deployments/:id",
      access: write,
      handler(ctx) {
        const { deployment: fields } = ctx.validate<{ deployment: DeploymentFields }>(updateSpec);
        const d = load(ctx);
        if (fields.resource_group_href)
          resolveHref(
            ctx.store,
            "deployment[resource_group_href]",
            fields.resource_group_href,
            RESOURCE_GROUP,
          );
        if (fields.name !== undefined && nameTaken(ctx.store, fields.name, d.id)) throw duplicateName();
        if (fields.name !== undefined) d.name = fields.name;
        if (fields.description !== undefined) d.description = fields.description;
        if (fields.server_tag_scope) d.server_tag_scope = fields.server_tag_scope;
        if (fields.resource_group_href !== undefined) d.resource_group_href = fields.resource_group_href;
        d.updated_at = ctx.clock.now();
        return ctx.noContent();
      },
    });

    sim.route({
      method: "DELETE",
      path: "/api/deployments/:id",
      access: write,
      handler(ctx) {
        const d = load(ctx);
        if (d.locked) throw actionNotAllowed("The deployment is locked");
        const hasServers =
          ctx.store
            .collection<{ id: string; deployment_id: string | null }>("servers")
            .find((s) => s.deployment_id === d.id) ??
          ctx.store
            .collection<{ id: string; deployment_id: string | null }>("server_arrays")
            .find((s) => s.deployment_id === d.id);
        if (hasServers) throw actionNotAllowed("The deployment still has servers or server arrays");
        deployments(ctx.store).delete(d.id);
        return ctx.noContent();
      },
    });

    sim.route({
      method: "POST",
      path: "/api/deployments/:id/clone",
      access: write,
      handler(ctx) {
        const { deployment: fields = {} } = ctx.validate<{ deployment?: DeploymentFields }>(cloneSpec);
        const source = load(ctx);
        const name = fields.name ?? cloneName(ctx.store, source.name);
        if (nameTaken(ctx.store, name)) throw duplicateName();
        const now = ctx.clock.now();
        const clone = deployments(ctx.store).insert({
          name,
          description: fields.description ?? source.description,
          server_tag_scope: fields.server_tag_scope || source.server_tag_scope,
          locked: false,
          lock_user_id: null,
          resource_group_href: source.resource_group_href,
          inputs: structuredClone(source.inputs),
          created_at: now,
          updated_at: now,
        });
        return ctx.created(deploymentHref(clone.id));
      },
    });

    for (const [action, locked] of [
      ["lock", true],
      ["unlock", false],
    ] as const) {
      sim.route({
        method: "POST",
        path: `/api/deployments/:id/${action}`,
        access: access.anyOf("actor"),
        handler(ctx) {
          const d = load(ctx);
          if (d.locked !== locked) {
            d.locked = locked;
            d.lock_user_id = locked ? ctx.userId : null;
            d.updated_at = ctx.clock.now();
          }
          return ctx.noContent();
        },
      });
    }
  },
});
