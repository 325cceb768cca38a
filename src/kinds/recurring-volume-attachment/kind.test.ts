import { describe, expect, it } from "vitest";
import { buildCrd } from "../../runtime/crd/index.ts";
import { InvalidSpecError } from "../../runtime/sdk/index.ts";
import { crdSources } from "../index.ts";
import { admitter } from "../shared/admission.testing.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import type { TableDesired } from "../shared/table-kind.ts";
import { recurringVolumeAttachmentKind as kind } from "./kind.ts";
import { ATTACHMENT_FIELDS, type AttachmentClient, attachmentSpecSchema } from "./schema.ts";

const admit = admitter(kind);
const base = {
  cloudHref: "/api/clouds/1",
  storageRef: { name: "data" },
  runnableHref: "/api/servers/1",
  device: "/dev/xvdb",
};

describe("RecurringVolumeAttachment CRD admission (CEL)", () => {
  it.each(["b", "c", "e", "f", "g", "h", "i", "j"])("accepts /dev/xvd%s", (letter) => {
    expect(admit({ ...base, device: `/dev/xvd${letter}` })).toEqual([]);
  });

  it.each(["/dev/xvda", "/dev/xvdd", "/dev/xvdk", "/dev/sdb", "/dev/xvdbb", "xvdb"])(
    "rejects device %s, naming spec.device",
    (device) => {
      const causes = admit({ ...base, device });
      expect(causes.map((c) => c.field)).toEqual(["spec.device"]);
      expect(causes[0]?.message).toMatch(/\/dev\/xvd followed by one of b, c, e, f, g, h, i, j/);
    },
  );

  it("accepts storageHref, settings and a volume type", () => {
    expect(
      admit({
        cloud: { name: "EC2" },
        storageHref: "/api/clouds/1/volume_snapshots/1",
        runnableHref: "/api/server_arrays/1",
        device: "/dev/xvdc",
        settings: { delete_on_termination: "true" },
        volumeTypeHref: "/api/clouds/1/volume_types/1",
      }),
    ).toEqual([]);
  });

  it.each([
    {
      reason: "both storage forms",
      spec: { ...base, storageHref: "/api/clouds/1/volumes/1" },
      field: "spec.storageRef",
    },
    { reason: "no storage", spec: { ...base, storageRef: undefined }, field: "spec.storageRef" },
    { reason: "no cloud", spec: { ...base, cloudHref: undefined }, field: "spec.cloudHref" },
    { reason: "no runnable", spec: { ...base, runnableHref: undefined }, field: "spec.runnableHref" },
    { reason: "a non-string setting", spec: { ...base, settings: { a: 1 } }, field: "spec.settings.a" },
  ])("rejects $reason, naming $field", ({ spec, field }) => {
    expect(admit(JSON.parse(JSON.stringify(spec))).map((c) => c.field)).toContain(field);
  });

  it("changes are admitted: they replace the attachment", () => {
    expect(admit({ ...base, device: "/dev/xvdc" }, base)).toEqual([]);
  });

  it("the CRD description notes the coming deprecation of device", () => {
    const crd = buildCrd(crdSources([kind]).find((s) => s.kind === kind.kind)!);
    const device = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.device;
    expect(device.description).toMatch(/marks this parameter as going to be deprecated/);
  });
});

const A = "/api/clouds/1/recurring_volume_attachments/3";
const rep = {
  device: "/dev/xvdb",
  status: "attached",
  size: "10 GB",
  runnable_type: "Server",
  storage_type: "Volume",
  links: [
    { rel: "self", href: A },
    { rel: "cloud", href: "/api/clouds/1" },
    { rel: "runnable", href: "/api/servers/1" },
    { rel: "storage", href: "/api/clouds/1/volumes/7" },
  ],
};
const storage = { kind: "Volume", name: "data", href: "/api/clouds/1/volumes/7", atProvider: {} };

function fake() {
  const calls: string[] = [];
  const client = {
    recurringVolumeAttachments: fakeResource([rep], calls, A),
    clouds: { index: async () => [] },
  } as unknown as AttachmentClient;
  return { client, calls };
}

describe("attachment kind", () => {
  const { client, calls } = fake();
  const d = async (spec: Record<string, unknown>, volume = storage): Promise<TableDesired> =>
    kind.desired(attachmentSpecSchema.parse(spec), desiredContext(client, "a", { storageRef: volume }));
  const observed = async () => (await kind.observe(client, A, await d(base)))!;

  it("takes the storage href from the Volume it references", async () => {
    expect(await d(base)).toEqual({
      cloudHref: "/api/clouds/1",
      device: "/dev/xvdb",
      runnableHref: "/api/servers/1",
      storageHref: "/api/clouds/1/volumes/7",
      fields: { storageHref: "storageRef" },
    });
    expect(kind.references(attachmentSpecSchema.parse(base))).toEqual([
      { field: "storageRef", kind: "Volume", name: "data" },
    ]);
  });

  it.each([
    { reason: "in sync", spec: base, want: [] },
    { reason: "other device", spec: { ...base, device: "/dev/xvdc" }, want: ["device"] },
    { reason: "other runnable", spec: { ...base, runnableHref: "/api/servers/2" }, want: ["runnableHref"] },
    {
      reason: "settings are write-only: not in the pure diff",
      spec: { ...base, settings: { a: "b" } },
      want: [],
    },
  ])("diff: $reason", async ({ spec, want }) => {
    expect(kind.diff(await d(spec), await observed()).map((x) => x.field)).toEqual(want);
  });

  it("a storage that changed (another Volume, or the Volume re-created) differs under the spec field used", async () => {
    const other = await d(base, { ...storage, href: "/api/clouds/1/volumes/8" });
    expect(kind.diff(other, await observed()).map((x) => x.field)).toEqual(["storageRef"]);
  });

  it("every field is replaced (delete, then create); settings and volume type are recorded as write-only", async () => {
    expect(kind.replace).toBe("deleteBeforeCreate");
    expect([...(kind.immutable ?? [])].sort()).toEqual([...ATTACHMENT_FIELDS].sort());
    const desired = await d({
      ...base,
      settings: { a: "b" },
      volumeTypeHref: "/api/clouds/1/volume_types/1",
    });
    expect(kind.writeOnly?.(desired)).toEqual({
      settings: { a: "b" },
      volumeTypeHref: "/api/clouds/1/volume_types/1",
    });
  });

  it("atProvider echoes the settings as applied (the service never shows them), not the volume type", async () => {
    const applied = {
      settings: { delete_on_termination: "true" },
      volumeTypeHref: "/api/clouds/1/volume_types/1",
    };
    const at = kind.atProvider(await observed(), applied);
    expect(at.settings).toEqual({ delete_on_termination: "true" });
    expect(at).not.toHaveProperty("volumeTypeHref");
    expect(kind.atProvider(await observed())).not.toHaveProperty("settings");
  });

  it("create parameters", async () => {
    calls.length = 0;
    await kind.create(client, await d({ ...base, settings: { a: "b" } }));
    expect(calls).toEqual([
      'create /api/clouds/1 {"device":"/dev/xvdb","runnable_href":"/api/servers/1","storage_href":"/api/clouds/1/volumes/7","settings":{"a":"b"}}',
    ]);
  });

  it("validate() re-checks the device for a spec that got past admission", () => {
    const spec = attachmentSpecSchema.parse({ ...base, device: "/dev/sda" });
    expect(() => kind.validate?.(spec, { name: "x", namespace: "n" })).toThrow(InvalidSpecError);
    expect(() => kind.validate?.(spec, { name: "x", namespace: "n" })).toThrow(/spec\.device/);
  });

  it("atProvider", async () => {
    expect(kind.atProvider(await observed())).toMatchObject({
      device: "/dev/xvdb",
      status: "attached",
      storageHref: "/api/clouds/1/volumes/7",
    });
  });
});
