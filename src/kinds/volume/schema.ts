import * as z from "zod";
import { type ServiceApi, selfHref } from "../../api/index.ts";
import { type CelRule, exactlyOne, href, immutable, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { numeric } from "../shared/observe.ts";
import { rows } from "../shared/table.ts";
import { type TableDesired, type TableRow, tableRows } from "../shared/table-kind.ts";
import { allowedChanges, allowedInstances, sameAllowed } from "./allowed.ts";

export type VolumeClient = Pick<ServiceApi, "volumes" | "clouds" | "recurringVolumeAttachments">;

/** A cloud or volume type by name, looked up through its collection index. */
export function byName(what: string) {
  return z
    .object({
      name: z.string().min(1).max(255).describe(`Exact name of the ${what}, looked up through its index.`),
    })
    .strict()
    .describe(`The ${what} by name (alternative to its href).`);
}

/**
 * Every field but `name` and `allowedInstanceHrefs`: the service takes them only on create,
 * and a volume holds data, so it is never deleted and re-created to change one of them.
 */
export const VOLUME_CREATE_ONLY = [
  "cloudHref",
  "cloud",
  "datacenterHref",
  "deploymentRef",
  "deploymentHref",
  "description",
  "encrypted",
  "imageHref",
  "iops",
  "parentVolumeSnapshotHref",
  "placementGroupHref",
  "size",
  "volumeTypeHref",
  "volumeType",
] as const;

/** A create-only href, a link of the real volume media type, sent as `<link>_href`. */
const hrefRow = (spec: string, link: string): TableRow<VolumeClient> =>
  rows.createOnlyLink(spec, link, `${link}_href`);

/** A volume type by name (`volumeType: {name}`), among those of the volume's cloud. */
const volumeTypeByName = {
  field: "volumeType",
  collection: (d: TableDesired) => `${d.cloudHref}/volume_types`,
  list: async (client: VolumeClient, d: TableDesired) =>
    (await client.clouds.volumeTypes(d.cloudHref as string)).map((t) => ({
      name: t.name,
      href: selfHref(t),
    })),
};

/**
 * Spec field, API parameter (spec 4.5) and member of the real volume media type. Every row but
 * the name and the allowed instances is create-only, compared only where the service shows it (a
 * link or attribute it leaves out is not held against the spec); every value is sent as a string
 * (size and iops as digits). The cloud is the collection's, not a parameter. `encrypted` and the
 * allowed instances have no attribute of their own: cloud_specific_attributes shows them.
 */
export const volumeRows: TableRow<VolumeClient>[] = [
  { ...rows.name(), defaultName: true },
  tableRows.cloud({ link: "cloud", empty: "unshown" }),
  hrefRow("datacenterHref", "datacenter"),
  { ...hrefRow("deploymentHref", "deployment"), ref: { field: "deploymentRef", kind: "Deployment" } },
  { ...hrefRow("volumeTypeHref", "volume_type"), byName: volumeTypeByName },
  hrefRow("imageHref", "image"),
  hrefRow("parentVolumeSnapshotHref", "parent_volume_snapshot"),
  // The service shows no placement group by href: not a link checked before the create.
  { ...hrefRow("placementGroupHref", "placement_group"), linkCheck: false },
  { spec: "size", param: "size", attribute: "size", toParam: String, write: "create", empty: "unshown" },
  rows.description("create"),
  {
    spec: "encrypted",
    param: "encrypted",
    attribute: "cloud_specific_attributes",
    fromApi: (raw) => (raw as { encrypted?: unknown } | null)?.encrypted,
    toParam: String,
    write: "create",
    empty: "unshown",
  },
  {
    spec: "iops",
    param: "iops",
    attribute: "iops",
    fromApi: numeric,
    toParam: String,
    write: "create",
    empty: "unshown",
  },
  {
    spec: "allowedInstanceHrefs",
    param: "allowed_instance_hrefs",
    attribute: "cloud_specific_attributes",
    fromApi: allowedInstances,
    diff: sameAllowed,
    change: allowedChanges,
    // Not a create parameter: the update after the first observation sets them.
    write: "afterCreate",
  },
  ...rows.read({ status: "status", resourceUid: "resource_uid" }),
];

const createOnly = (what: string) => `${what} Create-only: to change it, create a new Volume.`;

export const volumeRules: CelRule[] = [
  { ...exactlyOne(["cloudHref", "cloud"]), fieldPath: ".cloudHref" },
  { ...exactlyOne(["deploymentRef", "deploymentHref"], false), fieldPath: ".deploymentRef" },
  { ...exactlyOne(["volumeTypeHref", "volumeType"], false), fieldPath: ".volumeTypeHref" },
  {
    rule: "!(has(self.placementGroupHref) && has(self.parentVolumeSnapshotHref))",
    message: "placementGroupHref cannot be combined with parentVolumeSnapshotHref",
    fieldPath: ".placementGroupHref",
  },
  ...VOLUME_CREATE_ONLY.map((field) => ({
    ...immutable(field),
    message: `${field} is immutable: a volume is never re-created (its data would be lost); create a new Volume instead`,
  })),
];

export const volumeSpecSchema = managedSpec(
  {
    cloudHref: href("the cloud the volume lives in").optional(),
    cloud: byName("cloud").optional(),
    name: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("Name of the volume in the service; defaults to metadata.name. Can be changed."),
    datacenterHref: href("the datacenter (zone) of the volume; required by most clouds")
      .optional()
      .describe(createOnly("Href of the datacenter (zone) of the volume; required by most clouds.")),
    deploymentRef: ref(
      "Deployment",
      "A Deployment custom resource the volume belongs to. Create-only.",
    ).optional(),
    deploymentHref: href("a deployment the volume belongs to")
      .optional()
      .describe(createOnly("Href of a deployment the volume belongs to.")),
    description: z.string().max(4096).optional().describe(createOnly("Description of the volume.")),
    encrypted: z
      .boolean()
      .optional()
      .describe(createOnly("Encrypt the volume (only on clouds supporting encryption).")),
    imageHref: href("an image")
      .optional()
      .describe(createOnly("Href of an image used as the volume's source.")),
    iops: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe(createOnly("Provisioned IOPS (only on clouds supporting provisioned performance).")),
    parentVolumeSnapshotHref: href("a volume snapshot")
      .optional()
      .describe(createOnly("Href of a volume snapshot to create the volume from.")),
    placementGroupHref: href("a placement group")
      .optional()
      .describe(createOnly("Href of a placement group; cannot be combined with parentVolumeSnapshotHref.")),
    size: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe(
        createOnly("Size in gigabytes (sent to the service as digits); some volume types fix the size."),
      ),
    volumeTypeHref: href("a volume type").optional().describe(createOnly("Href of the volume type.")),
    volumeType: byName("volume type (in the volume's cloud)").optional(),
    allowedInstanceHrefs: z
      .array(href("an instance"))
      .max(1000)
      .optional()
      .meta({ "x-kubernetes-list-type": "set" })
      .describe(
        "Instances allowed to attach the volume. When set, the operator adds and removes exactly the " +
          "hrefs that differ; when unset, the list is not managed.",
      ),
  },
  volumeRules,
  "Desired state of the volume. Only name and allowedInstanceHrefs can change after creation.",
);

export type VolumeSpec = z.output<typeof volumeSpecSchema>;
