import type { RequestContext } from "../context.ts";
import { resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource, type SimulatorApi } from "../resource.ts";
import { type Access, access } from "../roles.ts";
import { seedCloudCatalog, seedLinked } from "../seed-data.ts";
import type { Store, StoredObject } from "../store.ts";
import { type CloudRecord, cloudHref } from "./clouds.ts";
import { renderInputs } from "./deployments.ts";
import { INSTANCE_FILTERS, INSTANCE_VIEWS, instanceRepresentation } from "./instances.ts";
import {
  type DatacenterRecord,
  datacenterSchema,
  hrefs,
  type ImageRecord,
  type InstanceRecord,
  imageSchema,
  instanceSchema,
  type ServerArrayRecord,
  type ServerRecord,
  type ServerTemplateRecord,
  type StoredScriptRecord,
  serverArraySchema,
  serverSchema,
  serverTemplateSchema,
  storedScriptSchema,
  type VolumeSnapshotRecord,
  volumeSnapshotSchema,
} from "./linked-records.ts";
import {
  currentInstancesOf,
  SERVER_VIEWS,
  serverArrayRepresentation,
  serverRepresentation,
} from "./servers.ts";

/**
 * Objects the spec only links to (beyond the spec: read-only index and show in the shapes and
 * views of the reference data): servers, server arrays, server templates, stored scripts, and
 * per cloud datacenters, instances, images and volume snapshots. Index accepts the filter
 * `name` (partial) everywhere, plus `state` (exact) on instances and snapshots,
 * `resource_uid` (exact) on the cloud-scoped ones and `deployment_href` (exact) on instances.
 */

const nameFilter = <T extends { name: string }>(): FilterSpec<T> => ({
  name: { partial: true, get: (o) => o.name },
});
const cloudFilters = <T extends { name: string; resource_uid: string }>(): FilterSpec<T> => ({
  name: { partial: true, get: (o) => o.name },
  resource_uid: { partial: false, get: (o) => o.resource_uid },
});

interface ReadOnly<T extends StoredObject, V extends string> {
  /**
   * Media type name (`server_array`); the collection and the XML root of the index are its
   * plural (`server_arrays`), the ResourceNotFound label its PascalCase (`ServerArray`): every
   * linked type is named that regularly.
   */
  type: string;
  access: Access;
  filters: FilterSpec<T>;
  /** Views of index and of show (the real routes of a stored script differ); default `default`. */
  views?: { index: readonly V[]; show: readonly V[] };
  represent: (store: Store, object: T, view: V) => Representation;
  /** Cloud-scoped: under `/api/clouds/:cloud_id/<plural>`, and the object must belong to it. */
  cloudScoped?: boolean;
}

const pascalCase = (snake: string) => snake.replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase());

function readOnly<T extends StoredObject & { cloud_id?: string }, V extends string = "default">(
  sim: SimulatorApi,
  def: ReadOnly<T, V>,
): void {
  const plural = `${def.type}s`;
  const base = def.cloudScoped ? `/api/clouds/:cloud_id/${plural}` : `/api/${plural}`;
  const views = def.views ?? { index: ["default"] as unknown as V[], show: ["default"] as unknown as V[] };
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
      const view = ctx.view(views.index);
      const keep = inScope(ctx);
      const list = ctx.filter(ctx.store.collection<T>(plural).filter(keep), def.filters);
      return ctx.many(
        def.type,
        plural,
        list.map((o) => def.represent(ctx.store, o, view)),
      );
    },
  });
  sim.route({
    method: "GET",
    path: `${base}/:id`,
    access: def.access,
    handler(ctx) {
      const view = ctx.view(views.show);
      const keep = inScope(ctx);
      const found = ctx.store.collection<T>(plural).get(ctx.param("id"));
      if (!found || !keep(found)) throw resourceNotFound(pascalCase(def.type), ctx.param("id"));
      return ctx.one(def.type, def.represent(ctx.store, found, view));
    },
  });
}

/** Datacenters and images: the same members, each with its own self href. */
function representCatalogEntry(d: DatacenterRecord, self: string): Representation {
  return {
    resource_uid: d.resource_uid,
    name: d.name,
    description: d.description,
    links: [link("self", self), link("cloud", cloudHref(d.cloud_id))],
    actions: [],
  };
}

export function volumeSnapshotRepresentation(s: VolumeSnapshotRecord): Representation {
  const self = hrefs.volumeSnapshot(s.cloud_id, s.id);
  const links = [link("self", self), link("cloud", cloudHref(s.cloud_id))];
  if (s.deployment_id !== null) links.push(link("deployment", hrefs.deployment(s.deployment_id)));
  if (s.parent_volume_id !== null)
    links.push(link("parent_volume", hrefs.volume(s.cloud_id, s.parent_volume_id)));
  links.push(link("recurring_volume_attachments", `${self}/recurring_volume_attachments`));
  return {
    name: s.name,
    description: s.description,
    resource_uid: s.resource_uid,
    size: s.size,
    state: s.state,
    // Snapshots are taken at once in the simulator: a pending one has made no progress yet.
    progress: s.state === "pending" ? 0 : 100,
    cloud_specific_attributes: null,
    visibility: s.visibility,
    links,
    actions: [],
    created_at: formatTimestamp(s.created_at),
    updated_at: formatTimestamp(s.updated_at),
  };
}

type InputsView = "default" | "inputs" | "inputs_2_0";

function serverTemplateRepresentation(t: ServerTemplateRecord, view: InputsView): Representation {
  const self = hrefs.serverTemplate(t.id);
  const rep: Representation = {
    name: t.name,
    description: t.description,
    revision: t.revision,
    links: [link("self", self), link("inputs", `${self}/inputs`), link("alert_specs", `${self}/alert_specs`)],
    // Revisions of one template share its lineage (an identifier, not an href).
    lineage: `lineage:server_template:${t.id}`,
    actions: [],
  };
  if (view !== "default") rep.inputs = renderInputs(t.inputs, view);
  return rep;
}

function storedScriptRepresentation(s: StoredScriptRecord, view: "default" | "inputs_2_0"): Representation {
  const self = hrefs.storedScript(s.id);
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    inputs: renderInputs(s.inputs, view === "inputs_2_0" ? "inputs_2_0" : "inputs"),
    created_at: formatTimestamp(s.created_at),
    updated_at: formatTimestamp(s.updated_at),
    links: [link("self", self), link("source", `${self}/source`)],
    lineage: `lineage:stored_script:${s.id}`,
    source: s.source,
    packages: s.packages,
    revision: s.revision,
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
    const instanceViews = { index: INSTANCE_VIEWS, show: INSTANCE_VIEWS };
    const serverViews = { index: SERVER_VIEWS, show: SERVER_VIEWS };
    const inputViews = {
      index: ["default", "inputs", "inputs_2_0"],
      show: ["default", "inputs", "inputs_2_0"],
    } as const;

    readOnly<DatacenterRecord>(sim, {
      type: "datacenter",
      access: observerOrInstance,
      filters: cloudFilters(),
      cloudScoped: true,
      represent: (_store, d) => representCatalogEntry(d, hrefs.datacenter(d.cloud_id, d.id)),
    });
    readOnly<ImageRecord>(sim, {
      type: "image",
      access: observerOrInstance,
      filters: cloudFilters(),
      cloudScoped: true,
      represent: (_store, d) => representCatalogEntry(d, hrefs.image(d.cloud_id, d.id)),
    });
    readOnly<VolumeSnapshotRecord>(sim, {
      type: "volume_snapshot",
      access: observerOrInstance,
      filters: { ...cloudFilters<VolumeSnapshotRecord>(), state: { partial: false, get: (s) => s.state } },
      cloudScoped: true,
      represent: (_store, s) => volumeSnapshotRepresentation(s),
    });
    readOnly<InstanceRecord, (typeof INSTANCE_VIEWS)[number]>(sim, {
      type: "instance",
      access: observerOrInstance,
      filters: INSTANCE_FILTERS,
      cloudScoped: true,
      views: instanceViews,
      represent: instanceRepresentation,
    });
    readOnly<ServerTemplateRecord, InputsView>(sim, {
      type: "server_template",
      access: observer,
      filters: nameFilter(),
      views: inputViews,
      represent: (_store, t, view) => serverTemplateRepresentation(t, view),
    });
    readOnly<ServerRecord, (typeof SERVER_VIEWS)[number]>(sim, {
      type: "server",
      access: observer,
      filters: nameFilter(),
      views: serverViews,
      represent: serverRepresentation,
    });
    readOnly<ServerArrayRecord, (typeof SERVER_VIEWS)[number]>(sim, {
      type: "server_array",
      access: observer,
      filters: nameFilter(),
      views: serverViews,
      represent: serverArrayRepresentation,
    });
    readOnly<StoredScriptRecord, "default" | "inputs_2_0">(sim, {
      type: "stored_script",
      access: observer,
      filters: nameFilter(),
      // As the real routes: the index shows the default view only, show also inputs_2_0.
      views: { index: ["default"], show: ["default", "inputs_2_0"] },
      represent: (_store, s, view) => storedScriptRepresentation(s, view),
    });

    // A stored script's source text (its `source` link): the bytes, no media type.
    sim.route({
      method: "GET",
      path: "/api/stored_scripts/:id/source",
      access: observer,
      raw: true,
      handler(ctx) {
        const script = ctx.store
          .collection<StoredScriptRecord>("stored_scripts")
          .require(ctx.param("id"), "StoredScript");
        return ctx.raw(200, "text/plain; charset=utf-8", script.source);
      },
    });

    // Current instances of a server array (linked from the array as `current_instances`).
    sim.route({
      method: "GET",
      path: "/api/server_arrays/:id/current_instances",
      access: observer,
      handler(ctx) {
        const view = ctx.view(INSTANCE_VIEWS);
        const array = ctx.store
          .collection<ServerArrayRecord>("server_arrays")
          .require(ctx.param("id"), "ServerArray");
        const list = ctx.filter(currentInstancesOf(ctx.store, array), INSTANCE_FILTERS);
        return ctx.many(
          "instance",
          "instances",
          list.map((i) => instanceRepresentation(ctx.store, i, view)),
        );
      },
    });

    // The servers and server arrays of a deployment (linked from it; not shown in the spec).
    const inDeployment = <T extends StoredObject & { name: string; deployment_id: string | null }>(
      collection: string,
      type: string,
      plural: string,
      represent: (store: Store, object: T, view: (typeof SERVER_VIEWS)[number]) => Representation,
    ) =>
      sim.route({
        method: "GET",
        path: `/api/deployments/:id/${plural}`,
        access: observer,
        handler(ctx) {
          const view = ctx.view(SERVER_VIEWS);
          const deployment = ctx.store.collection("deployments").require(ctx.param("id"), "Deployment");
          const list = ctx.filter(
            ctx.store.collection<T>(collection).filter((o) => o.deployment_id === deployment.id),
            nameFilter<T>(),
          );
          return ctx.many(
            type,
            plural,
            list.map((o) => represent(ctx.store, o, view)),
          );
        },
      });
    inDeployment<ServerRecord>("servers", "server", "servers", serverRepresentation);
    inDeployment<ServerArrayRecord>(
      "server_arrays",
      "server_array",
      "server_arrays",
      serverArrayRepresentation,
    );
  },
});
