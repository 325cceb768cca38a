import { z } from "zod";
import type { RequestContext } from "../context.ts";
import { resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { type Link, link, type Representation } from "../representation.ts";
import { defineResource, type SimulatorApi } from "../resource.ts";
import { type Access, access } from "../roles.ts";
import { seedId } from "../seed.ts";
import { seedCloudCatalog, seedLinked } from "../seed-data.ts";
import type { StoredObject } from "../store.ts";
import { type CloudRecord, cloudHref } from "./clouds.ts";
import { storedInputSchema } from "./deployments.ts";

/**
 * Objects the spec only links to (beyond the spec: read-only index and show with a minimal
 * representation of name and links; instances and snapshots also `state`): servers, server
 * arrays, server templates, stored scripts, and per cloud datacenters, instances, images and
 * volume snapshots. Index accepts the filter `name` (partial) everywhere, plus `state` (exact)
 * on instances and snapshots, and `resource_uid` (exact) on the cloud-scoped ones.
 */

const ref = z.union([z.string().min(1), z.number().int()]).transform(String);
const optionalRef = ref.nullable().default(null);

export const datacenterSchema = z
  .object({
    id: seedId,
    cloud_id: ref,
    name: z.string().min(1),
    resource_uid: z.string().default(""),
    description: z.string().default(""),
  })
  .strict();
export const imageSchema = datacenterSchema;
export const volumeSnapshotSchema = z
  .object({
    id: seedId,
    cloud_id: ref,
    name: z.string().min(1),
    resource_uid: z.string().default(""),
    description: z.string().default(""),
    state: z.string().default("available"),
    size: z.number().int().default(1),
    /** The volume the snapshot was taken of (listed under the volume's `volume_snapshots`). */
    parent_volume_id: optionalRef,
  })
  .strict();
export const instanceSchema = z
  .object({
    id: seedId,
    cloud_id: ref,
    name: z.string().min(1),
    resource_uid: z.string().default(""),
    /** `operational` for a running (current) instance, `inactive` for a next instance. */
    state: z.string().default("operational"),
    /** A next instance: the one launched next time (IP bindings to it are recurring). */
    is_next: z.boolean().default(false),
    server_id: optionalRef,
    server_array_id: optionalRef,
    server_template_id: optionalRef,
    deployment_id: optionalRef,
    datacenter_id: optionalRef,
    inputs: z.array(storedInputSchema).default([]),
  })
  .strict();
export const serverTemplateSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    description: z.string().default(""),
    inputs: z.array(storedInputSchema).default([]),
  })
  .strict();
export const serverSchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    cloud_id: ref,
    deployment_id: optionalRef,
    server_template_id: optionalRef,
    current_instance_id: optionalRef,
    next_instance_id: optionalRef,
  })
  .strict();
export const serverArraySchema = z
  .object({
    id: seedId,
    name: z.string().min(1),
    cloud_id: ref,
    deployment_id: optionalRef,
    server_template_id: optionalRef,
    next_instance_id: optionalRef,
  })
  .strict();
export const storedScriptSchema = z
  .object({ id: seedId, name: z.string().min(1), description: z.string().default("") })
  .strict();

export type DatacenterRecord = z.output<typeof datacenterSchema>;
export type ImageRecord = z.output<typeof imageSchema>;
export type VolumeSnapshotRecord = z.output<typeof volumeSnapshotSchema>;
export type InstanceRecord = z.output<typeof instanceSchema>;
export type ServerTemplateRecord = z.output<typeof serverTemplateSchema>;
export type ServerRecord = z.output<typeof serverSchema>;
export type ServerArrayRecord = z.output<typeof serverArraySchema>;
export type StoredScriptRecord = z.output<typeof storedScriptSchema>;

export const hrefs = {
  datacenter: (cloudId: string, id: string) => `${cloudHref(cloudId)}/datacenters/${id}`,
  image: (cloudId: string, id: string) => `${cloudHref(cloudId)}/images/${id}`,
  instance: (cloudId: string, id: string) => `${cloudHref(cloudId)}/instances/${id}`,
  volumeSnapshot: (cloudId: string, id: string) => `${cloudHref(cloudId)}/volume_snapshots/${id}`,
  server: (id: string) => `/api/servers/${id}`,
  serverArray: (id: string) => `/api/server_arrays/${id}`,
  serverTemplate: (id: string) => `/api/server_templates/${id}`,
  storedScript: (id: string) => `/api/stored_scripts/${id}`,
  deployment: (id: string) => `/api/deployments/${id}`,
};

function optional(rel: string, id: string | null, href: (id: string) => string): Link[] {
  return id === null ? [] : [link(rel, href(id))];
}

const nameFilter = <T extends { name: string }>(): FilterSpec<T> => ({
  name: { partial: true, get: (o) => o.name },
});
const cloudFilters = <T extends { name: string; resource_uid: string }>(): FilterSpec<T> => ({
  name: { partial: true, get: (o) => o.name },
  resource_uid: { partial: false, get: (o) => o.resource_uid },
});

interface ReadOnly<T extends StoredObject> {
  /**
   * Media type name (`server_array`); the collection and the XML root of the index are its
   * plural (`server_arrays`), the ResourceNotFound label its PascalCase (`ServerArray`): every
   * linked type is named that regularly.
   */
  type: string;
  access: Access;
  filters: FilterSpec<T>;
  represent: (object: T) => Representation;
  /** Cloud-scoped: under `/api/clouds/:cloud_id/<plural>`, and the object must belong to it. */
  cloudScoped?: boolean;
}

const pascalCase = (snake: string) => snake.replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase());

function readOnly<T extends StoredObject & { cloud_id?: string }>(sim: SimulatorApi, def: ReadOnly<T>): void {
  const plural = `${def.type}s`;
  const base = def.cloudScoped ? `/api/clouds/:cloud_id/${plural}` : `/api/${plural}`;
  const inScope = (ctx: RequestContext): ((o: T) => boolean) => {
    if (!def.cloudScoped) return () => true;
    const cloud = ctx.store.collection<CloudRecord>("clouds").require(ctx.param("cloud_id"), "Cloud");
    return (o) => o.cloud_id === cloud.id;
  };
  sim.route({
    method: "GET",
    path: base,
    access: def.access,
    handler(ctx) {
      ctx.view(["default"]);
      const keep = inScope(ctx);
      const list = ctx.filter(ctx.store.collection<T>(plural).filter(keep), def.filters);
      return ctx.many(def.type, plural, list.map(def.represent));
    },
  });
  sim.route({
    method: "GET",
    path: `${base}/:id`,
    access: def.access,
    handler(ctx) {
      ctx.view(["default"]);
      const keep = inScope(ctx);
      const found = ctx.store.collection<T>(plural).get(ctx.param("id"));
      if (!found || !keep(found)) throw resourceNotFound(pascalCase(def.type), ctx.param("id"));
      return ctx.one(def.type, def.represent(found));
    },
  });
}

/** Datacenters and images: the same members, each with its own self href. */
function representCatalogEntry(d: DatacenterRecord, self: string): Representation {
  return {
    name: d.name,
    description: d.description,
    resource_uid: d.resource_uid,
    links: [link("self", self), link("cloud", cloudHref(d.cloud_id))],
  };
}

export function instanceRepresentation(i: InstanceRecord): Representation {
  const href = hrefs.instance(i.cloud_id, i.id);
  return {
    name: i.name,
    state: i.state,
    resource_uid: i.resource_uid,
    links: [
      link("self", href),
      link("cloud", cloudHref(i.cloud_id)),
      ...optional("parent", i.server_id, hrefs.server),
      ...optional("parent", i.server_array_id, hrefs.serverArray),
      ...optional("deployment", i.deployment_id, hrefs.deployment),
      ...optional("server_template", i.server_template_id, hrefs.serverTemplate),
      ...optional("datacenter", i.datacenter_id, (id) => hrefs.datacenter(i.cloud_id, id)),
      link("inputs", `${href}/inputs`),
      link("monitoring_metrics", `${href}/monitoring_metrics`),
      link("alert_specs", `${href}/alert_specs`),
    ],
  };
}

export const linkedResource = defineResource({
  name: "linked",
  collections: {
    datacenters: datacenterSchema,
    images: imageSchema,
    volume_snapshots: volumeSnapshotSchema,
    instances: instanceSchema,
    server_templates: serverTemplateSchema,
    servers: serverSchema,
    server_arrays: serverArraySchema,
    stored_scripts: storedScriptSchema,
  },
  defaultSeed: () => {
    const { datacenters, images } = seedCloudCatalog();
    return { datacenters, images, ...seedLinked() };
  },
  register(sim) {
    const observer = access.anyOf("observer");
    const observerOrInstance = access.anyOf("observer", "instance");
    const instances = () => sim.store.collection<InstanceRecord>("instances");

    const representServer = (s: ServerRecord): Representation => ({
      name: s.name,
      links: [
        link("self", hrefs.server(s.id)),
        link("cloud", cloudHref(s.cloud_id)),
        ...optional("deployment", s.deployment_id, hrefs.deployment),
        ...optional("server_template", s.server_template_id, hrefs.serverTemplate),
        ...optional("current_instance", s.current_instance_id, (id) => hrefs.instance(s.cloud_id, id)),
        ...optional("next_instance", s.next_instance_id, (id) => hrefs.instance(s.cloud_id, id)),
        link("alert_specs", `${hrefs.server(s.id)}/alert_specs`),
      ],
    });
    const representServerArray = (a: ServerArrayRecord): Representation => ({
      name: a.name,
      instances_count: instances().filter((i) => i.server_array_id === a.id && !i.is_next).length,
      links: [
        link("self", hrefs.serverArray(a.id)),
        link("cloud", cloudHref(a.cloud_id)),
        ...optional("deployment", a.deployment_id, hrefs.deployment),
        ...optional("server_template", a.server_template_id, hrefs.serverTemplate),
        link("current_instances", `${hrefs.serverArray(a.id)}/current_instances`),
        ...optional("next_instance", a.next_instance_id, (id) => hrefs.instance(a.cloud_id, id)),
        link("alert_specs", `${hrefs.serverArray(a.id)}/alert_specs`),
      ],
    });

    readOnly<DatacenterRecord>(sim, {
      type: "datacenter",
      access: observerOrInstance,
      filters: cloudFilters(),
      cloudScoped: true,
      represent: (d) => representCatalogEntry(d, hrefs.datacenter(d.cloud_id, d.id)),
    });
    readOnly<ImageRecord>(sim, {
      type: "image",
      access: observerOrInstance,
      filters: cloudFilters(),
      cloudScoped: true,
      represent: (d) => representCatalogEntry(d, hrefs.image(d.cloud_id, d.id)),
    });
    readOnly<VolumeSnapshotRecord>(sim, {
      type: "volume_snapshot",
      access: observerOrInstance,
      filters: { ...cloudFilters<VolumeSnapshotRecord>(), state: { partial: false, get: (s) => s.state } },
      cloudScoped: true,
      represent: (s) => ({
        name: s.name,
        description: s.description,
        resource_uid: s.resource_uid,
        state: s.state,
        size: s.size,
        links: [link("self", hrefs.volumeSnapshot(s.cloud_id, s.id)), link("cloud", cloudHref(s.cloud_id))],
      }),
    });
    readOnly<InstanceRecord>(sim, {
      type: "instance",
      access: observerOrInstance,
      filters: { ...cloudFilters<InstanceRecord>(), state: { partial: false, get: (i) => i.state } },
      cloudScoped: true,
      represent: instanceRepresentation,
    });
    readOnly<ServerTemplateRecord>(sim, {
      type: "server_template",
      access: observer,
      filters: nameFilter(),
      represent: (t) => ({
        name: t.name,
        description: t.description,
        links: [
          link("self", hrefs.serverTemplate(t.id)),
          link("inputs", `${hrefs.serverTemplate(t.id)}/inputs`),
          link("alert_specs", `${hrefs.serverTemplate(t.id)}/alert_specs`),
        ],
      }),
    });
    readOnly<ServerRecord>(sim, {
      type: "server",
      access: observer,
      filters: nameFilter(),
      represent: representServer,
    });
    readOnly<ServerArrayRecord>(sim, {
      type: "server_array",
      access: observer,
      filters: nameFilter(),
      represent: representServerArray,
    });
    readOnly<StoredScriptRecord>(sim, {
      type: "stored_script",
      access: observer,
      filters: nameFilter(),
      represent: (s) => ({
        name: s.name,
        description: s.description,
        links: [
          link("self", hrefs.storedScript(s.id)),
          link("attachments", `${hrefs.storedScript(s.id)}/attachments`),
        ],
      }),
    });

    // Current instances of a server array (linked from the array as `current_instances`).
    sim.route({
      method: "GET",
      path: "/api/server_arrays/:id/current_instances",
      access: observer,
      handler(ctx) {
        ctx.view(["default"]);
        const array = ctx.store
          .collection<ServerArrayRecord>("server_arrays")
          .require(ctx.param("id"), "ServerArray");
        const list = ctx.filter(
          instances().filter((i) => i.server_array_id === array.id && !i.is_next),
          nameFilter<InstanceRecord>(),
        );
        return ctx.many("instance", "instances", list.map(instanceRepresentation));
      },
    });

    // The servers and server arrays of a deployment (linked from it; not shown in the spec).
    const inDeployment = <T extends StoredObject & { name: string; deployment_id: string | null }>(
      collection: string,
      type: string,
      plural: string,
      represent: (object: T) => Representation,
    ) =>
      sim.route({
        method: "GET",
        path: `/api/deployments/:id/${plural}`,
        access: observer,
        handler(ctx) {
          ctx.view(["default"]);
          const deployment = ctx.store.collection("deployments").require(ctx.param("id"), "Deployment");
          const list = ctx.filter(
            ctx.store.collection<T>(collection).filter((o) => o.deployment_id === deployment.id),
            nameFilter<T>(),
          );
          return ctx.many(type, plural, list.map(represent));
        },
      });
    inDeployment<ServerRecord>("servers", "server", "servers", representServer);
    inDeployment<ServerArrayRecord>("server_arrays", "server_array", "server_arrays", representServerArray);
  },
});
