import { type ServiceApi, selfHref } from "../../api/index.ts";
import type { RecurringVolumeAttachment } from "../../api/resources/recurring-volume-attachments.ts";
import type { ManagedKind, ResolvedReference } from "../../runtime/sdk/index.ts";
import { hrefLinks, InvalidSpecError } from "../../runtime/sdk/index.ts";
import { resolveCloudHref } from "../shared/cloud.ts";
import { orUndefined } from "../shared/observe.ts";
import { FieldTable, rows } from "../shared/table.ts";
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
  /** `wanted`: only those attachments are needed (ManagedKind.index.list); others may be left out. */
  index(
    cloudHref: string,
    filter?: Record<string, string>,
    wanted?: ReadonlySet<string>,
  ): Promise<AttachmentObserved[]>;
  create(cloudHref: string, params: Record<string, unknown>): Promise<string>;
  destroy(href: string): Promise<void>;
  clouds(): Promise<Named[]>;
}

/**
 * The attachment's fields. The service has no update: every one is create-only and a change
 * replaces the attachment (see `immutable`). Settings and volume type are never shown (write-only:
 * the runtime diffs them against status.applied); the cloud is the collection's.
 */
export const attachmentFields = new FieldTable<AttachmentDesired, AttachmentObserved>([
  { ...rows.createOnlyLink("cloudHref", "cloud"), from: (d) => d.fields.cloud },
  { spec: "device", param: "device", attribute: "device", write: "create", empty: "unshown" },
  rows.createOnlyLink("runnableHref", "runnable", "runnable_href"),
  { ...rows.createOnlyLink("storageHref", "storage", "storage_href"), from: (d) => d.fields.storage },
  {
    spec: "settings",
    param: "settings",
    write: "create",
    toParam: (v) => (Object.keys(v as object).length > 0 ? v : undefined),
  },
  { spec: "volumeTypeHref", param: "volume_type_href", write: "create" },
  ...rows.read({
    status: "status",
    size: "size",
    runnableType: "runnable_type",
    storageType: "storage_type",
  }),
]);

export const toAttachmentObserved = (a: RecurringVolumeAttachment): AttachmentObserved =>
  attachmentFields.observe(a);

export function attachmentCalls(api: ServiceApi): AttachmentCalls {
  const rva = api.recurringVolumeAttachments;
  return {
    show: async (href) => {
      const a = await orUndefined(rva.show(href));
      return a && toAttachmentObserved(a);
    },
    index: async (cloudHref, filter, wanted) =>
      (await rva.index(cloudHref, { filter, wanted })).map(toAttachmentObserved),
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

export const diffAttachment = (d: AttachmentDesired, o: AttachmentObserved) => attachmentFields.diff(d, o);
export const createParams = (d: AttachmentDesired) => attachmentFields.createParams(d);
export const attachmentAtProvider = (o: AttachmentObserved) => attachmentFields.atProvider(o);

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
    writeOnly: (d) => attachmentFields.writeOnly(d),
    immutable: ATTACHMENT_FIELDS,
    replace: "deleteBeforeCreate",
    atProvider: attachmentAtProvider,
    index: {
      scope: (spec, status) =>
        spec.cloudHref ?? (status.atProvider?.cloudHref as string | undefined) ?? undefined,
      scopeOfDesired: (desired) => desired.cloudHref,
      list: (client, cloudHref, wanted) => calls(client).index(cloudHref, undefined, wanted),
    },
  };
}

export const recurringVolumeAttachmentKind = createAttachmentKind();
