import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  condition,
  eventReasons,
  namespaceWithAccount,
  type Stack,
  startStack,
  waitFor,
  waitForCondition,
  waitForEventReason,
} from "../operator/harness.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  patch,
  type SentWrite,
  serviceApi,
  startStorageOperator,
  waitForCond,
} from "./helpers.ts";

/**
 * Issue 20: each writable href field is observed from the link the real service sends, so a
 * change made behind the operator's back is seen at the next resync and put back (or, where the
 * service cannot change the field in place, reported or replaced by the kind's rules).
 */

let stack: Stack;
let operator: Operator;
let api: ServiceApi;
const sent: SentWrite[] = [];

beforeAll(async () => {
  stack = await startStack();
  operator = await startStorageOperator(stack, sent);
  api = serviceApi(stack);
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
});

async function readyNamespace(): Promise<string> {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

/** The live simulator record (changing it is a change made in the service, behind the operator's back). */
function record<T>(collection: string, href: string): T {
  const id = href.split("/").pop()!;
  const found = stack.sim.store.collection<T & { id: string }>(collection).get(id);
  if (!found) throw new Error(`no ${collection} record ${id}`);
  return found;
}

const link = (o: { links: { rel: string; href?: string | null }[] }, rel: string) =>
  o.links.find((l) => l.rel === rel)?.href ?? undefined;

const WAIT = 30_000;

describe("Deployment resourceGroupHref", () => {
  it("a resource group changed through the API is put back on resync (update in place)", async () => {
    const ns = await readyNamespace();
    const group = (name: string) => api.resourceGroups.create({ cloud_href: "/api/clouds/1", name });
    const [mine, other] = [await group(`rg-${ns}-a`), await group(`rg-${ns}-b`)];
    await apply(stack, ns, "Deployment", "grouped", { resourceGroupHref: mine });
    const d = await waitForCond(stack, ns, "Deployment", "grouped", "Ready", "True");
    const href = d.status!.href!;
    expect(d.status?.atProvider?.resourceGroupHref).toBe(mine);

    await api.deployments.update(href, { resource_group_href: other });
    expect(link(await api.deployments.show(href), "resource_group")).toBe(other);
    await operator.resyncNow();
    await waitFor(
      "resource group put back",
      async () => (link(await api.deployments.show(href), "resource_group") === mine ? true : undefined),
      WAIT,
    );
    await waitFor(
      "DriftCorrected",
      async () => (await eventReasons(stack, ns, "grouped")).includes("DriftCorrected"),
      WAIT,
    );
    expect(sent.filter((w) => w.method === "PUT" && w.path === href).at(-1)?.body).toEqual({
      deployment: { resource_group_href: mine },
    });
    await deleteAndWaitGone(stack, ns, "Deployment", "grouped");
  });
});

describe("Volume", () => {
  const VOLUME = { cloudHref: "/api/clouds/1", datacenterHref: "/api/clouds/1/datacenters/1", size: 10 };
  const I = (n: number) => `/api/clouds/1/instances/${n}`;

  it("allowed instances changed through the API are put back on resync", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, "Volume", "allowed", { ...VOLUME, allowedInstanceHrefs: [I(1)] });
    const href = (await waitForCond(stack, ns, "Volume", "allowed", "Ready", "True")).status!.href!;
    await api.volumes.update(href, { allowed_instance_hrefs: { add: [I(2)] } });
    await operator.resyncNow();
    await waitFor(
      "allowed instances put back",
      async () => {
        const attrs = (await api.volumes.show(href)).cloud_specific_attributes;
        return JSON.stringify(attrs?.allowed_instance_hrefs) === JSON.stringify([I(1)]);
      },
      WAIT,
    );
    await deleteAndWaitGone(stack, ns, "Volume", "allowed");
  });

  it("a deployment changed in the service is reported (create-only: a volume is never re-created), no write", async () => {
    const ns = await readyNamespace();
    const [mine, other] = [
      await api.deployments.create({ name: `vol-dep-${ns}-a` }),
      await api.deployments.create({ name: `vol-dep-${ns}-b` }),
    ];
    await apply(stack, ns, "Volume", "owned", { ...VOLUME, deploymentHref: mine });
    const href = (await waitForCond(stack, ns, "Volume", "owned", "Ready", "True")).status!.href!;
    // The service has no update for it: only a change in the service itself can do this.
    record<{ deployment_href: string }>("volumes", href).deployment_href = other;
    const writes = sent.length;
    await operator.resyncNow();
    const v = await waitForCond(stack, ns, "Volume", "owned", "Stalled", "True", {
      reason: "ImmutableField",
      timeoutMs: WAIT,
    });
    expect(condition(v, "Ready")?.message).toContain("spec.deploymentHref cannot be changed");
    expect(condition(v, "Ready")?.message).toContain(other);
    expect(sent.slice(writes).filter((w) => w.path.startsWith(href))).toEqual([]);
    // Put back in the service, a requested reconcile finds it in sync again.
    record<{ deployment_href: string }>("volumes", href).deployment_href = mine;
    await patch(stack, ns, "Volume", "owned", {
      metadata: { annotations: { [Annotation.reconcileRequestedAt]: "back" } },
    });
    await waitForCond(stack, ns, "Volume", "owned", "Ready", "True", { timeoutMs: WAIT });
    await deleteAndWaitGone(stack, ns, "Volume", "owned");
    for (const d of [mine, other]) await api.deployments.destroy(d);
  });
});

describe("RecurringVolumeAttachment runnableHref", () => {
  it("a runnable changed in the service replaces the attachment (no update: delete, then create)", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, "Volume", "disk", {
      cloudHref: "/api/clouds/1",
      datacenterHref: "/api/clouds/1/datacenters/1",
      size: 10,
    });
    await apply(stack, ns, "RecurringVolumeAttachment", "disk-on-app", {
      cloudHref: "/api/clouds/1",
      storageRef: { name: "disk" },
      runnableHref: "/api/servers/1",
      device: "/dev/xvdc",
    });
    const a = await waitForCond(stack, ns, "RecurringVolumeAttachment", "disk-on-app", "Ready", "True");
    const old = a.status!.href!;
    record<{ runnable_href: string }>("recurring_volume_attachments", old).runnable_href = "/api/servers/2";
    await operator.resyncNow();
    const replaced = await waitFor(
      "replaced",
      async () => {
        const o = await get(stack, ns, "RecurringVolumeAttachment", "disk-on-app");
        const href = o?.status?.href;
        return href && href !== old && condition(o, "Ready")?.status === "True" ? href : undefined;
      },
      WAIT,
    );
    expect(link(await api.recurringVolumeAttachments.show(replaced), "runnable")).toBe("/api/servers/1");
    await expect(api.recurringVolumeAttachments.show(old)).rejects.toMatchObject({ kind: "notFound" });
    await waitForEventReason(stack, ns, "disk-on-app", "Replaced");
    await deleteAndWaitGone(stack, ns, "RecurringVolumeAttachment", "disk-on-app");
    await deleteAndWaitGone(stack, ns, "Volume", "disk");
  });
});

describe("Permission userHref", () => {
  it("another user at the grant's href is reported, never written (a grant has no update)", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, "Permission", "u2-observer", { userHref: "/api/users/2", roleTitle: "observer" });
    const p = await waitForCond(stack, ns, "Permission", "u2-observer", "Ready", "True");
    const href = p.status!.href!;
    const grant = record<{ user_id: string }>("permissions", href);
    grant.user_id = "1";
    const writes = sent.length;
    await operator.resyncNow();
    const stalled = await waitForCond(stack, ns, "Permission", "u2-observer", "Stalled", "True", {
      reason: "ImmutableField",
      timeoutMs: WAIT,
    });
    expect(condition(stalled, "Ready")?.message).toMatch(
      /spec\.userHref cannot be changed .*\/api\/users\/1/,
    );
    expect(sent.slice(writes).filter((w) => w.path.includes("/api/permissions"))).toEqual([]);
    grant.user_id = "2";
    await patch(stack, ns, "Permission", "u2-observer", {
      metadata: { annotations: { [Annotation.reconcileRequestedAt]: "back" } },
    });
    await waitForCond(stack, ns, "Permission", "u2-observer", "Ready", "True", { timeoutMs: WAIT });
    await deleteAndWaitGone(stack, ns, "Permission", "u2-observer");
  });
});
