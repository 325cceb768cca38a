import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "./harness.ts";
import { type BadInput, create, expectRefused, index, refuse, show } from "./net-helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());

const A = "/api/clouds/1/recurring_volume_attachments";
const VOLUME_HREF = "/api/clouds/1/volumes/2";
const SNAPSHOT_HREF = "/api/clouds/1/volume_snapshots/1";
const RVA = { device: "/dev/xvdb", runnable_href: "/api/servers/1", storage_href: VOLUME_HREF };

beforeEach(async () => {
  await h.hook("reset");
  await create(h, "/api/clouds/1/volumes", {
    volume: { name: "data", datacenter_href: "/api/clouds/1/datacenters/1", size: "100" },
  });
});

describe("recurring volume attachments", () => {
  it("creates with 201 + Location; size is text like '100 GB'", async () => {
    const res = await h.admin.post(A, {
      form: { recurring_volume_attachment: { ...RVA, settings: { delete_on_termination: "true" } } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe(`${A}/1`);
    expect(await show(h, `${A}/1`)).toEqual({
      created_at: "2026/01/01 00:00:00 +0000",
      updated_at: "2026/01/01 00:00:00 +0000",
      name: "data",
      runnable_type: "Server",
      storage_type: "Volume",
      status: "attached",
      device: "/dev/xvdb",
      device_id: "xvdb",
      size: "100 GB",
      links: [
        { rel: "self", href: `${A}/1` },
        { rel: "cloud", href: "/api/clouds/1" },
        { rel: "runnable", href: "/api/servers/1" },
        { rel: "storage", href: VOLUME_HREF },
      ],
      actions: [],
    });
    const stored = (await h.state()).recurring_volume_attachments?.[0];
    expect(stored?.settings).toEqual({ delete_on_termination: "true" });
  });

  it("attaches a snapshot to a server array", async () => {
    await create(h, A, {
      recurring_volume_attachment: {
        device: "/dev/xvdj",
        runnable_href: "/api/server_arrays/1",
        storage_href: SNAPSHOT_HREF,
        volume_type_href: "/api/clouds/1/volume_types/1",
      },
    });
    expect(await show(h, `${A}/1`)).toMatchObject({
      runnable_type: "ServerArray",
      storage_type: "VolumeSnapshot",
      size: "10 GB",
      name: "base-data-snap",
    });
  });

  it("serves all three prefixes; storage prefixes scope index and show", async () => {
    expect(
      await create(h, `${VOLUME_HREF}/recurring_volume_attachments`, { recurring_volume_attachment: RVA }),
    ).toBe(`${A}/1`);
    await create(h, `${SNAPSHOT_HREF}/recurring_volume_attachments`, {
      recurring_volume_attachment: { ...RVA, storage_href: SNAPSHOT_HREF },
    });
    expect((await index(h, A)).length).toBe(2);
    expect(
      (await index(h, `${VOLUME_HREF}/recurring_volume_attachments`)).map((a) => a.storage_type),
    ).toEqual(["Volume"]);
    expect(
      (await index(h, `${SNAPSHOT_HREF}/recurring_volume_attachments`)).map((a) => a.storage_type),
    ).toEqual(["VolumeSnapshot"]);
    expect((await show(h, `${VOLUME_HREF}/recurring_volume_attachments/1.json`)).device).toBe("/dev/xvdb");
    await expectRefused(
      h,
      () => h.admin.get(`${VOLUME_HREF}/recurring_volume_attachments/2`),
      422,
      "Couldn't find RecurringVolumeAttachment with ID=2",
    );
    await expectRefused(
      h,
      () => h.admin.get("/api/clouds/1/volumes/77/recurring_volume_attachments"),
      422,
      "Couldn't find Volume with ID=77",
    );
    await expectRefused(
      h,
      () => h.admin.get("/api/clouds/1/volume_snapshots/3/recurring_volume_attachments"),
      422,
      "Couldn't find VolumeSnapshot with ID=3",
    );
    expect((await h.admin.delete(`${SNAPSHOT_HREF}/recurring_volume_attachments/2`)).status).toBe(204);
    expect((await h.admin.delete(`${VOLUME_HREF}/recurring_volume_attachments/1`)).status).toBe(204);
    expect((await h.state()).recurring_volume_attachments ?? []).toEqual([]);
  });

  it("has no update", async () => {
    await create(h, A, { recurring_volume_attachment: RVA });
    expect(
      (await h.admin.put(`${A}/1`, { json: { recurring_volume_attachment: { device: "/dev/xvdc" } } }))
        .status,
    ).toBe(405);
  });

  it("filters by runnable_href and storage_href (exact)", async () => {
    await create(h, A, { recurring_volume_attachment: RVA });
    await create(h, A, {
      recurring_volume_attachment: {
        ...RVA,
        runnable_href: "/api/server_arrays/1",
        storage_href: SNAPSHOT_HREF,
      },
    });
    const ids = async (...f: string[]) => (await index(h, A, f)).map((a) => a.runnable_type);
    expect(await ids("runnable_href==/api/servers/1")).toEqual(["Server"]);
    expect(await ids("runnable_href==/api/servers")).toEqual([]);
    expect(await ids(`storage_href==${SNAPSHOT_HREF}`)).toEqual(["ServerArray"]);
    expect((await h.admin.get(A, { query: { filter: ["device==/dev/xvdb"] } })).status).toBe(400);
  });

  it("answers XML", async () => {
    await create(h, A, { recurring_volume_attachment: RVA });
    const xml = await h.admin.get(`${A}.xml`);
    expect(xml.headers.get("content-type")).toBe(
      "application/vnd.svc.recurring_volume_attachment+xml;type=collection;charset=utf-8",
    );
    expect(xml.text).toContain("<recurring_volume_attachments><recurring_volume_attachment>");
    expect(xml.text).toContain("<size>100 GB</size>");
  });

  it("roles: observer or instance reads, actor or instance writes", async () => {
    await expectRefused(h, () => h.user2.get(A), 403, "observer or instance");
    await expectRefused(
      h,
      () => h.user2.post(A, { json: { recurring_volume_attachment: RVA } }),
      403,
      "actor or instance",
    );
  });

  const devices = ["/dev/xvda", "/dev/xvdd", "/dev/xvdk", "/dev/sdb", "/dev/xvdbb", "xvdb", "/dev/xvdB"];
  const createCases: BadInput[] = [
    { reason: "no wrapper", body: {}, status: 400, message: "recurring_volume_attachment is required" },
    {
      reason: "no device",
      body: { recurring_volume_attachment: { ...RVA, device: undefined } },
      status: 400,
      message: "recurring_volume_attachment[device] is required",
    },
    ...devices.map(
      (device): BadInput => ({
        reason: `device ${device}`,
        body: { recurring_volume_attachment: { ...RVA, device } },
        status: 400,
        message: "recurring_volume_attachment[device] must be /dev/xvd followed by one of b c e f g h i j",
      }),
    ),
    {
      reason: "no runnable",
      body: { recurring_volume_attachment: { ...RVA, runnable_href: undefined } },
      status: 400,
      message: "recurring_volume_attachment[runnable_href] is required",
    },
    {
      reason: "runnable is an instance",
      body: { recurring_volume_attachment: { ...RVA, runnable_href: "/api/clouds/1/instances/1" } },
      status: 400,
      message:
        "recurring_volume_attachment[runnable_href] must be a server href (/api/servers/:id) or a server array href",
    },
    {
      reason: "unknown server",
      body: { recurring_volume_attachment: { ...RVA, runnable_href: "/api/servers/9" } },
      status: 422,
      message: "Couldn't find Server with ID=9",
    },
    {
      reason: "unknown server array",
      body: { recurring_volume_attachment: { ...RVA, runnable_href: "/api/server_arrays/9" } },
      status: 422,
      message: "Couldn't find ServerArray with ID=9",
    },
    {
      reason: "no storage",
      body: { recurring_volume_attachment: { ...RVA, storage_href: undefined } },
      status: 400,
      message: "recurring_volume_attachment[storage_href] is required",
    },
    {
      reason: "storage is an image",
      body: { recurring_volume_attachment: { ...RVA, storage_href: "/api/clouds/1/images/1" } },
      status: 400,
      message: "recurring_volume_attachment[storage_href] must be a volume href",
    },
    {
      reason: "unknown volume",
      body: { recurring_volume_attachment: { ...RVA, storage_href: "/api/clouds/1/volumes/50" } },
      status: 422,
      message: "Couldn't find Volume with ID=50",
    },
    {
      reason: "unknown snapshot",
      body: { recurring_volume_attachment: { ...RVA, storage_href: "/api/clouds/1/volume_snapshots/50" } },
      status: 422,
      message: "Couldn't find VolumeSnapshot with ID=50",
    },
    {
      reason: "storage of another cloud",
      body: { recurring_volume_attachment: { ...RVA, storage_href: "/api/clouds/2/volume_snapshots/3" } },
      status: 422,
      message: "is in cloud 2, not cloud 1",
    },
    {
      reason: "unknown volume type",
      body: { recurring_volume_attachment: { ...RVA, volume_type_href: "/api/clouds/1/volume_types/8" } },
      status: 422,
      message: "Couldn't find VolumeType with ID=8",
    },
    {
      reason: "settings not a hash",
      body: { recurring_volume_attachment: { ...RVA, settings: "x" } },
      status: 400,
      message: "recurring_volume_attachment[settings] must be a Hash",
    },
    {
      reason: "settings value not a string",
      body: { recurring_volume_attachment: { ...RVA, settings: { a: { b: "c" } } } },
      status: 400,
      message: "recurring_volume_attachment[settings][a] must be a String",
    },
    {
      reason: "unknown member",
      body: { recurring_volume_attachment: { ...RVA, size: "1" } },
      status: 400,
      message: "recurring_volume_attachment[size] is not allowed",
    },
  ];
  it.each(createCases)("create refuses: $reason", async (row) => {
    await refuse(h, "POST", A, row);
  });

  it("create under a storage prefix refuses another storage; unknown clouds and ids are 422", async () => {
    await refuse(h, "POST", `${SNAPSHOT_HREF}/recurring_volume_attachments`, {
      reason: "mismatch",
      body: { recurring_volume_attachment: RVA },
      status: 422,
      message: `recurring_volume_attachment[storage_href] must name ${SNAPSHOT_HREF}, the storage of the path`,
    });
    await refuse(h, "POST", "/api/clouds/5/recurring_volume_attachments", {
      reason: "cloud",
      body: { recurring_volume_attachment: RVA },
      status: 422,
      message: "Couldn't find Cloud with ID=5",
    });
    await expectRefused(
      h,
      () => h.admin.delete(`${A}/4`),
      422,
      "Couldn't find RecurringVolumeAttachment with ID=4",
    );
  });

  it("refuses a server of another cloud", async () => {
    await create(h, "/api/clouds/2/volumes", { volume: { name: "lab" } });
    await refuse(h, "POST", "/api/clouds/2/recurring_volume_attachments", {
      reason: "server in cloud 1",
      body: { recurring_volume_attachment: { ...RVA, storage_href: "/api/clouds/2/volumes/3" } },
      status: 422,
      message: "The server /api/servers/1 is in cloud 1, not cloud 2",
    });
  });
});
