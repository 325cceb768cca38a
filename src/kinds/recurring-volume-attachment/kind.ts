import { linkHref, type ServiceApi, selfHref } from "../../api/index.ts";
import type { RecurringVolumeAttachment } from "../../api/resources/recurring-volume-attachments.ts";
import type { FieldDiff, ManagedKind, ResolvedReference } from "../../runtime/kind.ts";
import { hrefLinks } from "../../runtime/links.ts";
import { InvalidSpecError } from "../../runtime/result.ts";
import { resolveCloudHref } from "../shared/cloud.ts";
import { compact, orUndefined } from "../shared/observe.ts";
import type { Named } from "../volume/kind.ts";
import { type AttachmentSpec, attachmentSpecSchema, DEVICE } from "./schema.ts";

export interface AttachmentObserved {
  href: string;
  device: string | null;
  status: string | null;
  size: string | null;
  cloudHref?: string;
  runnableHref?: string;
  storageHref?: string;
  runnableType: string | null;
  storageType: string | null;
}

export interface AttachmentDesired {
  cloudHref: string;
  device: string;
  runnableHref: string;
  storageHref: string;
  settings?: Record<string, string>;
  volumeTypeHref?: string;
  fields: { cloud: "cloudHref" | "cloud"; storage: "storageRef" | "storageHref" };
}

export interface AttachmentCalls {
  show(href: string): Promise<AttachmentObserved | undefined>;
  index(cloudHref: string, filter?: Record<string, string>): Promise<AttachmentObserved[]>;
  create(cloudHref: string, params: Record<string, unknown>): Promise<string>;
  destroy(href: string): Promise<void>;
  clouds(): Promise<Named[]>;
}

export function toAttachmentObserved(a: RecurringVolumeAttachment): AttachmentObserved {
  return {
    href: selfHref(a),
    device: a.device ?? null,
    status: a.status ?? null,
    size: a.size ?? null,
    cloudHref: linkHref(a, "cloud"),
    runnableHref: linkHref(a, "runnable"),
    storageHref: linkHref(a, "storage"),
    runnableType: a.runnable_type ?? null,
    storageType: a.storage_type ?? null,
  };
}

export function attachmentCalls(api: ServiceApi): AttachmentCalls {
  const rva = api.recurringVolumeAttachments;
  return {
    show: async (href) => {
      const a = await orUndefined(rva.show(href));
      return a && toAttachmentObserved(a);
    },
    index: async (cloudHref, filter) => (await rva.index(cloudHref, { filter })).map(toAttachmentObserved),
    create: (cloudHref, params) => rva.create(cloudHref, params as never),
    destroy: (href) => rva.destroy(href),
    clouds: async () => (await api.clouds.index()).map((c) => ({ name: c.name, href: selfHref(c) })),
  };
}

export type AttachmentClient = ServiceApi | { attachments: AttachmentCalls };

function calls(client: AttachmentClient): AttachmentCalls {
  return "client" in client ? attachmentCalls(client) : (client.attachments as AttachmentCalls);
}

/** Pure: the desired state once the cloud and the storage are known as hrefs. */
export function desiredAttachment(
  spec: AttachmentSpec,
  resolved: { cloudHref: string; storage?: ResolvedReference },
): AttachmentDesired {
  const d: AttachmentDesired = {
    cloudHref: resolved.cloudHref,
    device: spec.device,
    runnableHref: spec.runnableHref,
    storageHref: resolved.storage?.href ?? spec.storageHref!,
    fields: {
      cloud: spec.cloudHref ? "cloudHref" : "cloud",
      storage: spec.storageRef ? "storageRef" : "storageHref",
    },
  };
  if (spec.settings !== undefined) d.settings = spec.settings;
  if (spec.volumeTypeHref !== undefined) d.volumeTypeHref = spec.volumeTypeHref;
  return d;
}

/** Pure diff of what the service shows (device, runnable, storage, cloud); settings and volume type are write-only. */
export function diffAttachment(desired: AttachmentDesired, observed: AttachmentObserved): FieldDiff[] {
  const out: FieldDiff[] = [];
  const cmp = (field: string, want: string, have: string | null | undefined) => {
    if (have !== undefined && have !== null && want !== have)
      out.push({ field, desired: want, observed: have });
  };
  cmp(desired.fields.cloud, desired.cloudHref, observed.cloudHref);
  cmp("device", desired.device, observed.device);
  cmp("runnableHref", desired.runnableHref, observed.runnableHref);
  cmp(desired.fields.storage, desired.storageHref, observed.storageHref);
  return out;
}

export function createParams(d: AttachmentDesired): Record<string, unknown> {
  const p: Record<string, unknown> = {
    device: d.device,
    runnable_href: d.runnableHref,
    storage_href: d.storageHref,
  };
  if (d.settings !== undefined && Object.keys(d.settings).length > 0) p.settings = d.settings;
  if (d.volumeTypeHref !== undefined) p.volume_type_href = d.volumeTypeHref;
  return p;
}

export function attachmentAtProvider(o: AttachmentObserved): Record<string, unknown> {
  return compact({
    device: o.device,
    status: o.status,
    size: o.size,
    cloudHref: o.cloudHref ?? null,
    runnableHref: o.runnableHref ?? null,
    runnableType: o.runnableType,
    storageHref: o.storageHref ?? null,
    storageType: o.storageType,
  });
}

/** Every spec field: the service has no update, so a change of any of them replaces the attachment. */
export const ATTACHMENT_FIELDS = [
  "cloudHref",
  "cloud",
  "device",
  "runnableHref",
  "storageRef",
  "storageHref",
  "settings",
  "volumeTypeHref",
] as const;

export function createAttachmentKind(): ManagedKind<
  AttachmentSpec,
  AttachmentDesired,
  AttachmentObserved,
  AttachmentClient
> {
  return {
    kind: "RecurringVolumeAttachment",
    plural: "recurringvolumeattachments",
    singular: "recurringvolumeattachment",
    shortNames: ["svcrva"],
    description:
      "A recurring volume attachment: a volume or volume snapshot attached to a server or server array the next " +
      "time an instance is launched. The service cannot update it, so any change replaces it (delete, then create).",
    schema: attachmentSpecSchema,
    printerColumns: [
      { name: "Device", type: "string", jsonPath: ".spec.device", description: "Device path" },
      {
        name: "Status",
        type: "string",
        jsonPath: ".status.atProvider.status",
        description: "Status the service reports",
      },
    ],
    references: (spec) =>
      spec.storageRef ? [{ field: "storageRef", kind: "Volume", name: spec.storageRef.name }] : [],
    links: (spec) => hrefLinks(spec, ["cloudHref", "storageHref", "runnableHref", "volumeTypeHref"]),
    validate(spec) {
      // The CRD rule says the same; this covers a spec that got past admission.
      if (!DEVICE.test(spec.device))
        throw new InvalidSpecError("device", "must be /dev/xvd followed by one of b, c, e, f, g, h, i, j");
    },
    async desired(spec, ctx) {
      const cloudHref = await resolveCloudHref(ctx, spec, calls(ctx.client).clouds);
      return desiredAttachment(spec, { cloudHref, storage: ctx.refs.storageRef });
    },
    observe: (client, href) => calls(client).show(href),
    async lookup(client, desired) {
      const found = await calls(client).index(desired.cloudHref, {
        runnable_href: desired.runnableHref,
        storage_href: desired.storageHref,
      });
      return found.filter((a) => a.device === desired.device);
    },
    hrefOf: (o) => o.href,
    create: (client, desired) => calls(client).create(desired.cloudHref, createParams(desired)),
    update() {
      // Unreachable: every field is immutable and replaced (the service has no update).
      return Promise.reject(new Error("recurring volume attachments cannot be updated"));
    },
    delete: (client, href) => calls(client).destroy(href),
    diff: diffAttachment,
    writeOnly: (d) => ({ settings: d.settings, volumeTypeHref: d.volumeTypeHref }),
    immutable: ATTACHMENT_FIELDS,
    replace: "deleteBeforeCreate",
    atProvider: attachmentAtProvider,
    index: {
      scope: (spec, status) =>
        spec.cloudHref ?? (status.atProvider?.cloudHref as string | undefined) ?? undefined,
      list: (client, cloudHref) => calls(client).index(cloudHref),
    },
  };
}

export const recurringVolumeAttachmentKind = createAttachmentKind();
