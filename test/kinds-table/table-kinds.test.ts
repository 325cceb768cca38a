import { describe, expect, it } from "vitest";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  operatorStack,
  patch,
  refusal,
  remove,
  simCalls,
  simRows,
  waitForCond,
  waitGone,
} from "../kinds-storage/helpers.ts";
import { eventReasons, namespaceWithAccount, waitFor, waitForEventReason } from "../operator/harness.ts";
import { C, cases, type Parents } from "./cases.ts";

/**
 * The kinds built from a field table (src/kinds/shared/table-kind.ts), each through the standard
 * treatment end to end: create with references, update of each updatable field (one call, only
 * what changed), an immutable change refused, delete, orphan, adoption by annotation, ObserveOnly,
 * an object deleted outside the operator re-created, drift read through the collection index.
 */

const t = operatorStack();

const WAIT = 30_000;

/** A namespace with a Ready Account, Deployments `web` and `web2`, a Network `main` and an IpAddress `ip`. */
async function withParents(): Promise<{ ns: string; parents: Parents }> {
  const ns = await namespaceWithAccount(t.stack);
  // Deployment names are unique in the service's account: the namespace's own.
  await apply(t.stack, ns, "Deployment", "web", { name: `${ns}-web` });
  await apply(t.stack, ns, "Deployment", "web2", { name: `${ns}-web2` });
  await apply(t.stack, ns, "Network", "main", { cloudHref: C, cidrBlock: "10.10.0.0/16" });
  await apply(t.stack, ns, "IpAddress", "ip", { cloudHref: C });
  const href = async (kind: string, name: string) =>
    (await waitForCond(t.stack, ns, kind, name, "Ready", "True", { timeoutMs: WAIT })).status!.href!;
  return {
    ns,
    parents: {
      web: await href("Deployment", "web"),
      web2: await href("Deployment", "web2"),
      main: await href("Network", "main"),
      ip: await href("IpAddress", "ip"),
    },
  };
}

const ready = (ns: string, kind: string, name: string) =>
  waitForCond(t.stack, ns, kind, name, "Ready", "True", { timeoutMs: WAIT });

describe.each(cases)("$kind", { timeout: 120_000 }, (c) => {
  const record = (href: string) => simRows(t.stack, c.collection).find((r) => href.endsWith(`/${r.id}`));

  it("creates with its references, updates each field with one call of only what changed, refuses an immutable change, deletes", async () => {
    const { ns, parents } = await withParents();
    await apply(t.stack, ns, c.kind, "x", c.spec);
    const created = await ready(ns, c.kind, "x");
    const href = created.status!.href!;
    expect(record(href)).toMatchObject(c.created(parents));
    expect(created.status?.atProvider).toMatchObject(c.atProvider);

    let generation = created.metadata.generation!;
    for (const u of c.updates(parents)) {
      const before = t.sent.filter((w) => w.method === "PUT" && w.path === href).length;
      await patch(t.stack, ns, c.kind, "x", { spec: u.spec });
      generation++;
      await waitFor(
        `${JSON.stringify(u.spec)} applied`,
        async () => {
          const o = await get(t.stack, ns, c.kind, "x");
          const ok = o?.status?.observedGeneration === generation;
          return ok && o.status?.conditions?.find((x) => x.type === "Ready")?.status === "True";
        },
        WAIT,
      );
      expect(t.sent.filter((w) => w.method === "PUT" && w.path === href).map((w) => w.body)).toEqual([
        ...t.sent
          .filter((w) => w.method === "PUT" && w.path === href)
          .slice(0, before)
          .map((w) => w.body),
        { [c.wrapper]: u.body },
      ]);
    }
    if (c.updates(parents).length > 0) await waitForEventReason(t.stack, ns, "x", "Updated");

    if (c.immutable) {
      const refused = await refusal(patch(t.stack, ns, c.kind, "x", { spec: c.immutable.spec }));
      expect(refused.code).toBe(422);
      expect(refused.fields).toContain(c.immutable.field);
    }

    await deleteAndWaitGone(t.stack, ns, c.kind, "x");
    expect(record(href)).toBeUndefined();
  });

  it("Orphan leaves the object; the href annotation adopts it back without a create; Delete then removes it", async () => {
    const { ns } = await withParents();
    await apply(t.stack, ns, c.kind, "o", { ...c.spec, deletionPolicy: "Orphan" });
    const href = (await ready(ns, c.kind, "o")).status!.href!;
    await deleteAndWaitGone(t.stack, ns, c.kind, "o");
    expect(record(href)).toBeDefined();

    const creates = await simCalls(t.stack, "POST", c.post);
    await apply(t.stack, ns, c.kind, "o", c.spec, { annotations: { [Annotation.href]: href } });
    expect((await ready(ns, c.kind, "o")).status?.href).toBe(href);
    await waitFor(
      "Adopted event",
      async () => (await eventReasons(t.stack, ns, "o")).includes("Adopted"),
      WAIT,
    );
    expect(await simCalls(t.stack, "POST", c.post)).toBe(creates);
    await deleteAndWaitGone(t.stack, ns, c.kind, "o");
    expect(record(href)).toBeUndefined();
  });

  it("ObserveOnly reports an existing object and never writes it", async () => {
    const ns = await namespaceWithAccount(t.stack);
    const name = `watched-${ns}`;
    const href = await c.make(t.api, name);
    const writes = t.sent.length;
    await apply(
      t.stack,
      ns,
      c.kind,
      "w",
      { ...c.observe.spec(name), managementPolicy: "ObserveOnly" },
      { annotations: { [Annotation.href]: href } },
    );
    const o = await ready(ns, c.kind, "w");
    expect(o.status?.atProvider).toMatchObject(c.observe.atProvider(name));
    await deleteAndWaitGone(t.stack, ns, c.kind, "w");
    expect(t.sent.slice(writes).filter((w) => w.path.startsWith(href) || w.path === c.post)).toEqual([]);
    expect(record(href)).toMatchObject(c.observe.untouched);
  });

  it("re-creates an object deleted outside the operator, found by the resync's one index call", async () => {
    const { ns } = await withParents();
    await apply(t.stack, ns, c.kind, "r", c.spec);
    const first = (await ready(ns, c.kind, "r")).status!.href!;
    const clean = (await t.operator.resyncNow()).find((r) => r.kind === c.kind)!;
    expect(clean).toMatchObject({ drifted: 0, missing: 0, individually: 0 });
    expect(clean.calls).toBeLessThanOrEqual(clean.groups);

    await c.destroy(t.api, first);
    const resync = (await t.operator.resyncNow()).find((r) => r.kind === c.kind)!;
    expect(resync.missing).toBeGreaterThanOrEqual(1);
    const back = await waitFor(
      "re-created",
      async () => {
        const o = await get(t.stack, ns, c.kind, "r");
        const href = o?.status?.href;
        return href &&
          href !== first &&
          o.status?.conditions?.find((x) => x.type === "Ready")?.status === "True"
          ? href
          : undefined;
      },
      WAIT,
    );
    expect(record(back)).toBeDefined();
    await waitFor(
      "Recreated event",
      async () => (await eventReasons(t.stack, ns, "r")).includes("Recreated"),
      WAIT,
    );
    await deleteAndWaitGone(t.stack, ns, c.kind, "r");
  });
});

describe("a Deployment and a ResourceGroup naming each other", { timeout: 120_000 }, () => {
  it("are both Stalled ReferenceCycle, naming the cycle; dropping one reference lets both become Ready", async () => {
    const ns = await namespaceWithAccount(t.stack);
    const posts = t.sent.length;
    await apply(t.stack, ns, "Deployment", "web", { name: `${ns}-web`, resourceGroupRef: { name: "rg" } });
    await apply(t.stack, ns, "ResourceGroup", "rg", { cloudHref: C, deploymentRef: { name: "web" } });
    const stalled = (kind: string, name: string, cycle: string) =>
      waitForCond(t.stack, ns, kind, name, "Stalled", "True", {
        reason: "ReferenceCycle",
        message: new RegExp(`the references form a cycle: ${cycle}`),
        timeoutMs: WAIT,
      });
    await stalled("Deployment", "web", "Deployment web -> ResourceGroup rg -> Deployment web");
    await stalled("ResourceGroup", "rg", "ResourceGroup rg -> Deployment web -> ResourceGroup rg");
    expect(t.sent.slice(posts).filter((w) => /^\/api\/(deployments|resource_groups)/.test(w.path))).toEqual(
      [],
    );

    // The group need not name the deployment back: without it, the group is made, then the deployment in it.
    await patch(t.stack, ns, "ResourceGroup", "rg", { spec: { deploymentRef: null } });
    const rg = (await ready(ns, "ResourceGroup", "rg")).status!.href!;
    const web = await ready(ns, "Deployment", "web");
    expect(web.status?.atProvider?.resourceGroupHref).toBe(rg);
    expect(simRows(t.stack, "deployments").find((d) => web.status!.href!.endsWith(`/${d.id}`))).toMatchObject(
      {
        resource_group_href: rg,
      },
    );

    // Deleted together: the group waits for the deployment in it, which the service requires.
    await remove(t.stack, ns, "ResourceGroup", "rg");
    await waitForCond(t.stack, ns, "ResourceGroup", "rg", "Ready", "False", {
      reason: "DeletionBlocked",
      message: /Deployment web/,
      timeoutMs: WAIT,
    });
    await deleteAndWaitGone(t.stack, ns, "Deployment", "web");
    await waitGone(t.stack, ns, "ResourceGroup", "rg");
    expect(simRows(t.stack, "resource_groups").some((g) => rg.endsWith(`/${g.id}`))).toBe(false);
  });
});
