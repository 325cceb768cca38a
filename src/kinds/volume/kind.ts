import { isApiError, type ServiceApi, selfHref } from "../../api/index.ts";
import type { Volume } from "../../api/resources/volumes.ts";
import type {
  DesiredContext,
  FieldDiff,
  ManagedKind,
  ObjectMeta,
  ResolvedReference,
} from "../../runtime/sdk/index.ts";
import { DeletionBlockedError, hrefLinks, NameLookup, Reason, WaitError } from "../../runtime/sdk/index.ts";
import { resolveCloudHref } from "../shared/cloud.ts";
import { numeric, orUndefined } from "../shared/observe.ts";
import { FieldTable, rows } from "../shared/table.ts";
import { VOLUME_CREATE_ONLY, type VolumeSpec, volumeSpecSchema } from "./schema.ts";

/** The volume as the service shows it, flattened (links and cloud_specific_attributes). */
export interface VolumeObserved {
  href: string;
  name: string;
  size: number | null;
  description: string | null;
  status: string | null;
  resourceUid: string | null;
  /** The `iops` attribute; null when the volume shows none. */
  iops: number | null;
  /**
   * Link hrefs by rel (cloud, datacenter, deployment, volume_type, image, parent_volume_snapshot,
   * placement_group): every href a volume was created with is one of the real media type's links.
   */
  links: Record<string, string>;
  /**
   * cloud_specific_attributes, where the service shows them: `encrypted` and
   * `allowed_instance_hrefs`, which the real media type has no attribute or link of their own for.
   */
  attributes: Record<string, unknown>;
}

/** Desired API state; `fields` names the spec field each reference came from (for messages). */
export interface VolumeDesired {
  cloudHref: string;
  name: string;
  datacenterHref?: string;
  deploymentHref?: string;
  description?: string;
  encrypted?: boolean;
  imageHref?: string;
  iops?: number;
  parentVolumeSnapshotHref?: string;
  placementGroupHref?: string;
  size?: number;
  volumeTypeHref?: string;
  allowedInstanceHrefs?: string[];
  fields: {
    cloud: "cloudHref" | "cloud";
    deployment: "deploymentRef" | "deploymentHref";
    volumeType: "volumeTypeHref" | "volumeType";
  };
}

/** The calls this kind makes; `volumeCalls()` adapts the service client to them. */
export interface VolumeCalls {
  show(href: string): Promise<VolumeObserved | undefined>;
  /** `wanted`: only those volumes are needed (ManagedKind.index.list); others may be left out. */
  index(
    cloudHref: string,
    filter?: Record<string, string>,
    wanted?: ReadonlySet<string>,
  ): Promise<VolumeObserved[]>;
  create(cloudHref: string, params: Record<string, unknown>): Promise<string>;
  update(href: string, params: Record<string, unknown>): Promise<void>;
  destroy(href: string): Promise<void>;
  /** Hrefs of the recurring volume attachments naming the volume. */
  attachments(volumeHref: string): Promise<string[]>;
  /** The volume types of a cloud and the clouds of the account, by name and href (for name lookups). */
  volumeTypes(cloudHref: string): Promise<Named[]>;
  clouds(): Promise<Named[]>;
}

export interface Named {
  name: string;
  href: string;
}

export function toVolumeObserved(v: Volume): VolumeObserved {
  const links: Record<string, string> = {};
  for (const l of v.links) if (l.href && l.rel !== "self") links[l.rel] = l.href;
  return {
    href: selfHref(v),
    name: v.name,
    size: v.size ?? null,
    description: v.description ?? null,
    status: v.status ?? null,
    resourceUid: v.resource_uid ?? null,
    iops: numeric(v.iops),
    links,
    attributes: { ...(v.cloud_specific_attributes ?? {}) },
  };
}

export function volumeCalls(api: ServiceApi): VolumeCalls {
  return {
    show: async (href) => {
      const v = await orUndefined(api.volumes.show(href));
      return v && toVolumeObserved(v);
    },
    index: async (cloudHref, filter, wanted) =>
      (await api.volumes.index(cloudHref, { filter, wanted })).map(toVolumeObserved),
    create: (cloudHref, params) => api.volumes.create(cloudHref, params as never),
    update: (href, params) => api.volumes.update(href, params),
    destroy: (href) => api.volumes.destroy(href),
    attachments: async (volumeHref) =>
      (await api.recurringVolumeAttachments.index(volumeHref)).map((a) => selfHref(a)),
    volumeTypes: async (cloudHref) =>
      (await api.clouds.volumeTypes(cloudHref)).map((t) => ({ name: t.name, href: selfHref(t) })),
    clouds: async () => (await api.clouds.index()).map((c) => ({ name: c.name, href: selfHref(c) })),
  };
}

/** What the kind is given: the service client, or `{volumes: VolumeCalls}` (a fake in tests). */
export type VolumeClient = ServiceApi | { volumes: VolumeCalls };

function calls(client: VolumeClient): VolumeCalls {
  return "client" in client ? volumeCalls(client) : (client.volumes as VolumeCalls);
}

/** The runtime's cached name lookups and the account prefix of their keys. */
export function namesOf(ctx: Pick<DesiredContext<unknown>, "names" | "account">): {
  names: NameLookup;
  account: string;
} {
  return { names: ctx.names ?? new NameLookup(), account: ctx.account ?? "" };
}

/** Pure: the desired state once cloud, volume type and deployment are known as hrefs. */
export function desiredVolume(
  spec: VolumeSpec,
  meta: Pick<ObjectMeta, "name">,
  resolved: { cloudHref: string; volumeTypeHref?: string; deployment?: ResolvedReference },
): VolumeDesired {
  const d: VolumeDesired = {
    cloudHref: resolved.cloudHref,
    name: spec.name ?? meta.name,
    fields: {
      cloud: spec.cloudHref ? "cloudHref" : "cloud",
      deployment: spec.deploymentRef ? "deploymentRef" : "deploymentHref",
      volumeType: spec.volumeType ? "volumeType" : "volumeTypeHref",
    },
  };
  const set = <K extends keyof VolumeDesired>(k: K, v: VolumeDesired[K] | undefined) => {
    if (v !== undefined) d[k] = v;
  };
  set("datacenterHref", spec.datacenterHref);
  set("deploymentHref", resolved.deployment?.href ?? spec.deploymentHref);
  set("description", spec.description);
  set("encrypted", spec.encrypted);
  set("imageHref", spec.imageHref);
  set("iops", spec.iops);
  set("parentVolumeSnapshotHref", spec.parentVolumeSnapshotHref);
  set("placementGroupHref", spec.placementGroupHref);
  set("size", spec.size);
  set("volumeTypeHref", resolved.volumeTypeHref ?? spec.volumeTypeHref);
  if (spec.allowedInstanceHrefs !== undefined)
    d.allowedInstanceHrefs = [...new Set(spec.allowedInstanceHrefs)];
  return d;
}

/** The allowed instances the service shows (absent means none). */
export function observedAllowed(o: VolumeObserved): string[] {
  const list = o.attributes.allowed_instance_hrefs;
  return Array.isArray(list) ? list.map(String) : [];
}

/** Exactly the hrefs to add and to remove; undefined when the list is unmanaged. */
export function allowedInstanceChanges(
  desired: VolumeDesired,
  observed: VolumeObserved,
): { add: string[]; remove: string[] } | undefined {
  if (desired.allowedInstanceHrefs === undefined) return undefined;
  const have = new Set(observedAllowed(observed));
  const want = new Set(desired.allowedInstanceHrefs);
  return {
    add: [...want].filter((h) => !have.has(h)).sort(),
    remove: [...have].filter((h) => !want.has(h)).sort(),
  };
}

/** A create-only href, reported under the spec field the value came from. */
const hrefRow = (spec: string, link: string, from?: (d: VolumeDesired) => string) => ({
  ...rows.createOnlyLink(spec, link, `${link}_href`),
  from,
});

/**
 * The volume's fields. Every one but the name is create-only, compared only where the service
 * shows it (a link or attribute it leaves out is not held against the spec); every value is
 * sent as a string (size and iops as digits). The cloud is the collection's, not a parameter.
 */
export const volumeFields = new FieldTable<VolumeDesired, VolumeObserved>(
  [
    rows.name(),
    { ...hrefRow("cloudHref", "cloud", (d) => d.fields.cloud), param: undefined },
    hrefRow("datacenterHref", "datacenter"),
    hrefRow("deploymentHref", "deployment", (d) => d.fields.deployment),
    hrefRow("volumeTypeHref", "volume_type", (d) => d.fields.volumeType),
    hrefRow("imageHref", "image"),
    hrefRow("parentVolumeSnapshotHref", "parent_volume_snapshot"),
    hrefRow("placementGroupHref", "placement_group"),
    { spec: "size", param: "size", attribute: "size", toParam: String, write: "create", empty: "unshown" },
    rows.description("create"),
    {
      // No attribute of its own in the real media type: cloud_specific_attributes, where shown.
      spec: "encrypted",
      param: "encrypted",
      read: (o) => o.attributes.encrypted,
      toParam: String,
      write: "create",
      empty: "unshown",
    },
    { spec: "iops", param: "iops", attribute: "iops", toParam: String, write: "create", empty: "unshown" },
    ...rows.read({ status: "status", resourceUid: "resource_uid" }),
  ],
  // Links are kept by rel (see VolumeObserved).
  { read: (o, f) => (f.link ? o.links[f.link] : (o as unknown as Record<string, unknown>)[f.spec]) },
);

/** Pure diff by spec field: the table's rows, then the allowed instances (as sets). */
export function diffVolume(desired: VolumeDesired, observed: VolumeObserved): FieldDiff[] {
  const out = volumeFields.diff(desired, observed);
  const allowed = allowedInstanceChanges(desired, observed);
  if (allowed && (allowed.add.length > 0 || allowed.remove.length > 0))
    out.push({
      field: "allowedInstanceHrefs",
      desired: desired.allowedInstanceHrefs,
      observed: observedAllowed(observed),
    });
  return out;
}

export const createParams = (d: VolumeDesired) => volumeFields.createParams<Record<string, string>>(d);

/** The PUT parameters for the fields that differ: the name and exactly the add and remove sets. */
export function updateParams(
  diff: FieldDiff[],
  desired: VolumeDesired,
  observed: VolumeObserved,
): Record<string, unknown> {
  const params = volumeFields.updateParams(diff, desired);
  const allowed = diff.some((d) => d.field === "allowedInstanceHrefs")
    ? allowedInstanceChanges(desired, observed)
    : undefined;
  if (allowed) {
    const sets: { add?: string[]; remove?: string[] } = {};
    if (allowed.add.length > 0) sets.add = allowed.add;
    if (allowed.remove.length > 0) sets.remove = allowed.remove;
    params.allowed_instance_hrefs = sets;
  }
  return params;
}

export function volumeAtProvider(o: VolumeObserved): Record<string, unknown> {
  return { ...volumeFields.atProvider(o), allowedInstanceHrefs: observedAllowed(o) };
}

/** Statuses of a volume attached (or being attached) to an instance: it is not deleted then. */
const ATTACHED = new Set(["in-use", "attaching"]);

/** Statuses in which a volume is not usable yet (real-service notes: failures show `failed`). */
const NOT_READY = new Set(["creating", "pending", "failed", "error"]);

export const Message = {
  attached: (hrefs: string[]) =>
    `recurring volume attachments still reference the volume (${hrefs.join(", ")}); delete them first`,
  refused: (href: string, why: string) => `the service refuses to delete ${href} (${why}); waiting`,
  inUse: (href: string, status: string) =>
    `volume ${href} is ${status} (attached to an instance); waiting for it to be detached before deleting it`,
} as const;

export function createVolumeKind(
  options: { deletionRetryMs?: number } = {},
): ManagedKind<VolumeSpec, VolumeDesired, VolumeObserved, VolumeClient> {
  const retryMs = options.deletionRetryMs ?? 10_000;
  return {
    kind: "Volume",
    plural: "volumes",
    singular: "volume",
    shortNames: ["svcvol"],
    description:
      "A volume (block storage) of the cloud-management service. Only its name and allowed instances can change; " +
      "it is never deleted and re-created to apply a change, and it is deleted only once no recurring attachment " +
      "references it and it is not in use.",
    schema: volumeSpecSchema,
    printerColumns: [
      { name: "Size", type: "integer", jsonPath: ".status.atProvider.size", description: "Size in GB" },
      {
        name: "Status",
        type: "string",
        jsonPath: ".status.atProvider.status",
        description: "Status the service reports",
      },
    ],
    references: (spec) =>
      spec.deploymentRef
        ? [{ field: "deploymentRef", kind: "Deployment", name: spec.deploymentRef.name }]
        : [],
    // placementGroupHref is left out: the service shows no placement group by href.
    links: (spec) =>
      hrefLinks(spec, [
        "cloudHref",
        "datacenterHref",
        "deploymentHref",
        "imageHref",
        "parentVolumeSnapshotHref",
        "volumeTypeHref",
        "allowedInstanceHrefs",
      ]),
    async desired(spec, ctx) {
      const api = calls(ctx.client);
      const cloudHref = await resolveCloudHref(ctx, spec, api.clouds);
      const { names, account } = namesOf(ctx);
      const volumeTypeHref = spec.volumeType
        ? await names.href(
            `${account}${cloudHref}/volume_types`,
            spec.volumeType.name,
            "volumeType.name",
            () => api.volumeTypes(cloudHref),
          )
        : undefined;
      return desiredVolume(spec, ctx.meta, { cloudHref, volumeTypeHref, deployment: ctx.refs.deploymentRef });
    },
    observe: (client, href) => calls(client).show(href),
    async lookup(client, desired) {
      // Names are not unique: a candidate must also show every create-only value the spec sets.
      const found = await calls(client).index(desired.cloudHref, { name: desired.name });
      return found.filter(
        (v) =>
          v.name === desired.name && diffVolume(desired, v).every((d) => d.field === "allowedInstanceHrefs"),
      );
    },
    hrefOf: (o) => o.href,
    create: (client, desired) => calls(client).create(desired.cloudHref, createParams(desired)),
    async update(client, href, desired, observed, diff) {
      const params = updateParams(diff, desired, observed);
      if (Object.keys(params).length > 0) await calls(client).update(href, params);
    },
    async delete(client, href, observed) {
      // The service refuses (422) both; waiting says why instead of failing on every attempt.
      const attachments = await calls(client).attachments(href);
      if (attachments.length > 0) throw new DeletionBlockedError(Message.attached(attachments), retryMs);
      if (observed.status !== null && ATTACHED.has(observed.status))
        throw new WaitError(Reason.Deleting, Message.inUse(href, observed.status), retryMs);
      try {
        await calls(client).destroy(href);
      } catch (error) {
        // 422: something the service knows still holds the volume (an attachment made meanwhile,
        // snapshots): wait for it to go rather than stall the deletion for good.
        if (isApiError(error) && error.kind === "conflict")
          throw new DeletionBlockedError(Message.refused(href, error.message), retryMs);
        throw error;
      }
    },
    diff: diffVolume,
    immutable: VOLUME_CREATE_ONLY,
    atProvider: volumeAtProvider,
    notReady: (o) =>
      o.status !== null && NOT_READY.has(o.status)
        ? `the service reports the volume as ${o.status}`
        : undefined,
    index: {
      scope: (spec, status) =>
        spec.cloudHref ?? (status.atProvider?.cloudHref as string | undefined) ?? undefined,
      scopeOfDesired: (desired) => desired.cloudHref,
      list: (client, cloudHref, wanted) => calls(client).index(cloudHref, undefined, wanted),
    },
  };
}

export const volumeKind = createVolumeKind();
