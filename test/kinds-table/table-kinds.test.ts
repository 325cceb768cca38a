import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { Annotation } from "../../src/runtime/names.ts";
import type { Operator } from "../../src/runtime/operator.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  patch,
  refusal,
  remove,
  type SentWrite,
  serviceApi,
  simCalls,
  simRows,
  startStorageOperator,
  waitForCond,
  waitGone,
} from "../kinds-storage/helpers.ts";
import { eventReasons, namespaceWithAccount, type Stack, startStack, waitFor } from "../operator/harness.ts";

/**
 * The kinds built from a field table (src/kinds/shared/table-kind.ts), each through the standard
 * treatment end to end: create with references, update of each updatable field (one call, only
 * what changed), an immutable change refused, delete, orphan, adoption by annotation, ObserveOnly,
 * an object deleted outside the operator re-created, drift read through the collection index.
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

const WAIT = 30_000;
const C = "/api/clouds/1";

/** Hrefs of the namespace's Deployments `web` and `web2` and Network `main`. */
interface Parents {
  web: string;
  web2: string;
  main: string;
}

interface KindCase {
  kind: string;
  /** The simulator collection and the create route (statistics template). */
  collection: string;
  post: string;
  wrapper: string;
  spec: Record<string, unknown>;
  /** What the service must hold after the create. */
  created(p: Parents): Record<string, unknown>;
  /** Each updatable field: the spec change and the exact body of the one PUT it must cause. */
  updates(p: Parents): { spec: Record<string, unknown>; body: Record<string, unknown> }[];
  immutable: { spec: Record<string, unknown>; field: string };
  /** Makes one in the service, outside the operator. */
  make(name: string): Promise<string>;
  atProvider: Record<string, unknown>;
}

const cases: KindCase[] = [
  {
    kind: "IpAddress",
    collection: "ip_addresses",
    post: "/api/clouds/:cloud_id/ip_addresses",
    wrapper: "ip_address",
    spec: { cloudHref: C, domain: "vpc", networkRef: { name: "main" }, deploymentRef: { name: "web" } },
    created: (p) => ({ name: "x", domain: "vpc", network_href: p.main, deployment_href: p.web }),
    updates: (p) => [
      { spec: { name: "x-renamed" }, body: { name: "x-renamed" } },
      // The API requires the name in every update.
      { spec: { deploymentRef: { name: "web2" } }, body: { deployment_href: p.web2, name: "x-renamed" } },
    ],
    immutable: { spec: { domain: "ec2_classic" }, field: "spec.domain" },
    make: (name) => api.ipAddresses.create(C, { name }),
    atProvider: { cloudHref: C, address: expect.stringMatching(/^198\.1[89]\.\d+\.\d+$/) },
  },
  {
    kind: "ResourceGroup",
    collection: "resource_groups",
    post: "/api/resource_groups",
    wrapper: "resource_group",
    spec: { cloudHref: C, deploymentRef: { name: "web" } },
    created: (p) => ({ name: "x", cloud_id: "1", deployment_href: p.web, description: null }),
    updates: (p) => [
      { spec: { description: "team a" }, body: { description: "team a" } },
      { spec: { deploymentRef: { name: "web2" } }, body: { deployment_href: p.web2 } },
      { spec: { description: "" }, body: { description: "" } },
    ],
    immutable: { spec: { name: "other" }, field: "spec.name" },
    make: (name) => api.resourceGroups.create({ cloud_href: C, name }),
    atProvider: { cloudHref: C, state: "available" },
  },
];

/** A namespace with a Ready Account, Deployments `web` and `web2` and a Network `main`. */
async function withParents(): Promise<{ ns: string; parents: Parents }> {
  const ns = await namespaceWithAccount(stack);
  // Deployment names are unique in the service's account: the namespace's own.
  await apply(stack, ns, "Deployment", "web", { name: `${ns}-web` });
  await apply(stack, ns, "Deployment", "web2", { name: `${ns}-web2` });
  await apply(stack, ns, "Network", "main", { cloudHref: C, cidrBlock: "10.10.0.0/16" });
  const href = async (kind: string, name: string) =>
    (await waitForCond(stack, ns, kind, name, "Ready", "True", { timeoutMs: WAIT })).status!.href!;
  return {
    ns,
    parents: {
      web: await href("Deployment", "web"),
      web2: await href("Deployment", "web2"),
      main: await href("Network", "main"),
    },
  };
}

const ready = (ns: string, kind: string, name: string) =>
  waitForCond(stack, ns, kind, name, "Ready", "True", { timeoutMs: WAIT });

describe.each(cases)("$kind", { timeout: 120_000 }, (c) => {
  const record = (href: string) => simRows(stack, c.collection).find((r) => href.endsWith(`/${r.id}`));

  it("creates with its references, updates each field with one call of only what changed, refuses an immutable change, deletes", async () => {
    const { ns, parents } = await withParents();
    await apply(stack, ns, c.kind, "x", c.spec);
    const created = await ready(ns, c.kind, "x");
    const href = created.status!.href!;
    expect(record(href)).toMatchObject(c.created(parents));
    expect(created.status?.atProvider).toMatchObject(c.atProvider);

    let generation = created.metadata.generation!;
    for (const u of c.updates(parents)) {
      const before = sent.filter((w) => w.method === "PUT" && w.path === href).length;
      await patch(stack, ns, c.kind, "x", { spec: u.spec });
      generation++;
      await waitFor(
        `${JSON.stringify(u.spec)} applied`,
        async () => {
          const o = await get(stack, ns, c.kind, "x");
          const ok = o?.status?.observedGeneration === generation;
          return ok && o.status?.conditions?.find((x) => x.type === "Ready")?.status === "True";
        },
        WAIT,
      );
      expect(sent.filter((w) => w.method === "PUT" && w.path === href).map((w) => w.body)).toEqual([
        ...sent
          .filter((w) => w.method === "PUT" && w.path === href)
          .slice(0, before)
          .map((w) => w.body),
        { [c.wrapper]: u.body },
      ]);
    }
    expect(await eventReasons(stack, ns, "x")).toContain("Updated");

    const refused = await refusal(patch(stack, ns, c.kind, "x", { spec: c.immutable.spec }));
    expect(refused.code).toBe(422);
    expect(refused.fields).toContain(c.immutable.field);

    await deleteAndWaitGone(stack, ns, c.kind, "x");
    expect(record(href)).toBeUndefined();
  });

  it("Orphan leaves the object; the href annotation adopts it back without a create; Delete then removes it", async () => {
    const { ns } = await withParents();
    await apply(stack, ns, c.kind, "o", { ...c.spec, deletionPolicy: "Orphan" });
    const href = (await ready(ns, c.kind, "o")).status!.href!;
    await deleteAndWaitGone(stack, ns, c.kind, "o");
    expect(record(href)).toBeDefined();

    const creates = await simCalls(stack, "POST", c.post);
    await apply(stack, ns, c.kind, "o", c.spec, { annotations: { [Annotation.href]: href } });
    expect((await ready(ns, c.kind, "o")).status?.href).toBe(href);
    await waitFor(
      "Adopted event",
      async () => (await eventReasons(stack, ns, "o")).includes("Adopted"),
      WAIT,
    );
    expect(await simCalls(stack, "POST", c.post)).toBe(creates);
    await deleteAndWaitGone(stack, ns, c.kind, "o");
    expect(record(href)).toBeUndefined();
  });

  it("ObserveOnly reports an existing object and never writes it", async () => {
    const ns = await namespaceWithAccount(stack);
    const href = await c.make(`watched-${ns}`);
    const writes = sent.length;
    await apply(
      stack,
      ns,
      c.kind,
      "w",
      {
        cloudHref: C,
        name: `watched-${ns}`,
        deploymentHref: "/api/deployments/1",
        managementPolicy: "ObserveOnly",
      },
      { annotations: { [Annotation.href]: href } },
    );
    const o = await ready(ns, c.kind, "w");
    expect(o.status?.atProvider).toMatchObject({ ...c.atProvider, name: `watched-${ns}` });
    await deleteAndWaitGone(stack, ns, c.kind, "w");
    expect(sent.slice(writes).filter((w) => w.path.startsWith(href) || w.path === c.post)).toEqual([]);
    expect(record(href)).toMatchObject({ deployment_href: null });
  });

  it("re-creates an object deleted outside the operator, found by the resync's one index call", async () => {
    const { ns } = await withParents();
    await apply(stack, ns, c.kind, "r", c.spec);
    const first = (await ready(ns, c.kind, "r")).status!.href!;
    const clean = (await operator.resyncNow()).find((r) => r.kind === c.kind)!;
    expect(clean).toMatchObject({ drifted: 0, missing: 0, individually: 0 });
    expect(clean.calls).toBeLessThanOrEqual(clean.groups);

    if (c.kind === "IpAddress") await api.ipAddresses.destroy(first);
    else await api.resourceGroups.destroy(first);
    const resync = (await operator.resyncNow()).find((r) => r.kind === c.kind)!;
    expect(resync.missing).toBeGreaterThanOrEqual(1);
    const back = await waitFor(
      "re-created",
      async () => {
        const o = await get(stack, ns, c.kind, "r");
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
      async () => (await eventReasons(stack, ns, "r")).includes("Recreated"),
      WAIT,
    );
    await deleteAndWaitGone(stack, ns, c.kind, "r");
  });
});

describe("a Deployment and a ResourceGroup naming each other", { timeout: 120_000 }, () => {
  it("are both Stalled ReferenceCycle, naming the cycle; dropping one reference lets both become Ready", async () => {
    const ns = await namespaceWithAccount(stack);
    const posts = sent.length;
    await apply(stack, ns, "Deployment", "web", { name: `${ns}-web`, resourceGroupRef: { name: "rg" } });
    await apply(stack, ns, "ResourceGroup", "rg", { cloudHref: C, deploymentRef: { name: "web" } });
    const stalled = (kind: string, name: string, cycle: string) =>
      waitForCond(stack, ns, kind, name, "Stalled", "True", {
        reason: "ReferenceCycle",
        message: new RegExp(`the references form a cycle: ${cycle}`),
        timeoutMs: WAIT,
      });
    await stalled("Deployment", "web", "Deployment web -> ResourceGroup rg -> Deployment web");
    await stalled("ResourceGroup", "rg", "ResourceGroup rg -> Deployment web -> ResourceGroup rg");
    expect(sent.slice(posts).filter((w) => /^\/api\/(deployments|resource_groups)/.test(w.path))).toEqual([]);

    // The group need not name the deployment back: without it, the group is made, then the deployment in it.
    await patch(stack, ns, "ResourceGroup", "rg", { spec: { deploymentRef: null } });
    const rg = (await ready(ns, "ResourceGroup", "rg")).status!.href!;
    const web = await ready(ns, "Deployment", "web");
    expect(web.status?.atProvider?.resourceGroupHref).toBe(rg);
    expect(simRows(stack, "deployments").find((d) => web.status!.href!.endsWith(`/${d.id}`))).toMatchObject({
      resource_group_href: rg,
    });

    // Deleted together: the group waits for the deployment in it, which the service requires.
    await remove(stack, ns, "ResourceGroup", "rg");
    await waitForCond(stack, ns, "ResourceGroup", "rg", "Ready", "False", {
      reason: "DeletionBlocked",
      message: /Deployment web/,
      timeoutMs: WAIT,
    });
    await deleteAndWaitGone(stack, ns, "Deployment", "web");
    await waitGone(stack, ns, "ResourceGroup", "rg");
    expect(simRows(stack, "resource_groups").some((g) => rg.endsWith(`/${g.id}`))).toBe(false);
  });
});
