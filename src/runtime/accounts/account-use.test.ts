import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import { ManagedReconciler } from "../reconcile/index.ts";
import type { AccountKind, ManagedKind } from "../sdk/index.ts";
import {
  ACCOUNT_DELETING,
  BlockedError,
  cannotDelete,
  getCondition,
  managedSpec,
  noCredentialsRetryMs,
  objectKey,
  Reason,
  ref,
  secretProblem,
} from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { AccountController } from "./accounts.ts";

describe("cannotDelete", () => {
  it.each([
    {
      reason: "a Secret gone before this process read it: the Secret, and how to release the resource",
      found: {
        notReady: "Secret creds (spec.oauth.refreshTokenSecretRef) not found",
        reason: "SecretNotFound",
      },
      want: {
        reason: "SecretNotFound",
        message:
          "cannot delete /api/things/1: Account default has no working credentials: Secret creds " +
          "(spec.oauth.refreshTokenSecretRef) not found, and this operator process kept none from before; " +
          "restore the Account's credentials, or set spec.deletionPolicy: Orphan to release this resource " +
          "and leave /api/things/1 in the service",
      },
    },
    {
      reason: "an Account that does not exist: the Account's own words",
      found: { notReady: "Account default not found in namespace demo" },
      want: {
        reason: "DependencyNotReady",
        message:
          "cannot delete /api/things/1: Account default not found in namespace demo; restore the " +
          "Account's credentials, or set spec.deletionPolicy: Orphan to release this resource and leave " +
          "/api/things/1 in the service",
      },
    },
  ])("$reason", ({ found, want }) => {
    const error = cannotDelete("default", found, "/api/things/1");
    expect(error).toBeInstanceOf(BlockedError);
    expect({ reason: error.reason, message: error.message }).toEqual(want);
  });

  it("retries from 2 s, as long as the credentials have been missing, at most a minute apart", () => {
    expect([undefined, 0, 5_000, 45_000, 3_600_000].map(noCredentialsRetryMs)).toEqual([
      2_000, 2_000, 5_000, 45_000, 60_000,
    ]);
  });
});

/**
 * The Account and the resources using it deleted together, in every order: a cloud that refuses
 * to delete a parent while it has children, an Account controller and the managed reconciler.
 */
const NS = "demo";

class Cloud {
  readonly objects = new Map<string, { href: string; name: string; parent?: string }>();
  readonly deleted: string[] = [];
  refused = new Set<string>();
  private next = 1;
  create(name: string, parent?: string): string {
    const href = `/api/things/${this.next++}`;
    this.objects.set(href, { href, name, ...(parent ? { parent } : {}) });
    return href;
  }
  delete(href: string): void {
    const children = [...this.objects.values()].filter((o) => o.parent === href);
    if (children.length > 0) throw new Error(`${href} still has ${children.length} children`);
    this.objects.delete(href);
    this.deleted.push(href);
  }
}

type Client = { cloud: Cloud };

function cloudAccount(cloud: Cloud): AccountKind<{ secretRef: { name: string } }, string, Client> {
  return {
    schema: z.object({ secretRef: z.object({ name: z.string() }) }),
    async credentials(spec, readSecret) {
      const data = await readSecret(spec.secretRef.name);
      if (!data?.token) throw secretProblem(Reason.SecretNotFound, `Secret ${spec.secretRef.name} not found`);
      return data.token;
    },
    connect: () => ({ cloud }),
    async verify() {
      return { host: "cloud.example" };
    },
    async close() {},
  };
}

type ThingSpec = { parentRef?: { name: string }; deletionPolicy: string };
const thingKind: ManagedKind<
  ThingSpec,
  { name: string; parent?: string },
  { href: string; name: string },
  Client
> = {
  kind: "Thing",
  plural: "things",
  singular: "thing",
  shortNames: [],
  description: "test",
  schema: managedSpec({ parentRef: ref("Thing").optional() }) as never,
  references: (s) => (s.parentRef ? [{ field: "parentRef", kind: "Thing", name: s.parentRef.name }] : []),
  desired: (_s, ctx) => ({ name: ctx.meta.name, parent: ctx.refs.parentRef?.href }),
  observe: async (c, href) => c.cloud.objects.get(href),
  lookup: async (c, d) => [...c.cloud.objects.values()].filter((o) => o.name === d.name),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.cloud.create(d.name, d.parent),
  update: async () => {},
  delete: async (c, href) => c.cloud.delete(href),
  diff: () => [],
  atProvider: (o) => ({ name: o.name }),
};

/** Parents before children: web <- main <- (main-a, main-b). */
const THINGS: [string, string | undefined][] = [
  ["web", undefined],
  ["main", "web"],
  ["main-a", "main"],
  ["main-b", "main"],
];

let kube: FakeKube;
let cloud: Cloud;
let refs: ReferenceIndex;
let accounts: AccountController;
let reconciler: ManagedReconciler;
/** Deleting Things seen reporting DependencyNotReady (must stay empty). */
let waitedForAccount: string[];

function start(): void {
  const clock = new FakeClock();
  const log = pino({ level: "silent" });
  accounts = new AccountController(cloudAccount(cloud) as AccountKind<unknown, unknown, unknown>, {
    store: kube,
    kube,
    refs,
    events: { emit: () => {} },
    clock,
    log,
    resyncMs: 60_000,
  });
  reconciler = new ManagedReconciler(thingKind, {
    store: kube,
    kube,
    accounts,
    refs,
    events: { emit: () => {} },
    clock,
    log,
    owners,
  });
}

let owners: OwnerIndex;

beforeEach(async () => {
  kube = new FakeKube();
  cloud = new Cloud();
  refs = new ReferenceIndex();
  waitedForAccount = [];
  owners = new OwnerIndex();
  kube.onChange = (kind, obj, old) => {
    // Fed as the operator's informer handlers feed it.
    if (kind !== "Account") {
      if (obj) owners.set(kind, obj);
      else if (old) owners.remove(objectKey(kind, old.metadata.namespace, old.metadata.name));
    }
    // A status written by a reconcile that saw the deletion (not one left from before it).
    const written = JSON.stringify(obj?.status) !== JSON.stringify(old?.status);
    const ready = getCondition(obj?.status?.conditions, "Ready");
    if (
      kind === "Thing" &&
      written &&
      old?.metadata.deletionTimestamp &&
      ready?.reason === Reason.DependencyNotReady
    )
      waitedForAccount.push(`${obj?.metadata.name}: ${ready.message}`);
  };
  start();
  kube.secrets.set(`${NS}/creds`, { token: "t" });
  kube.put("Account", {
    metadata: { name: "default", namespace: NS },
    spec: { secretRef: { name: "creds" } },
  });
  for (const [name, parent] of THINGS)
    kube.put("Thing", {
      metadata: { name, namespace: NS },
      spec: parent ? { parentRef: { name: parent } } : {},
    });
  await settle(() => 0);
  expect(cloud.objects.size).toBe(THINGS.length);
});

const keys = () => [...kube.objects.keys()];

async function reconcileKey(key: string): Promise<void> {
  const [kind, namespace = "", name = ""] = key.split("/");
  if (kind === "Account") await accounts.reconcile(namespace, name);
  else await reconciler.reconcile(namespace, name);
}

/** Reconciles every object, in the order `pick` shuffles them, until nothing is left or 20 rounds pass. */
async function settle(pick: (n: number) => number): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const pending = keys();
    while (pending.length > 0) await reconcileKey(pending.splice(pick(pending.length), 1)[0]!);
  }
}

/** A small deterministic generator: each order is its own run, and a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let s = seed + 1;
  return (n) => {
    s = (s * 48271) % 2147483647;
    return s % n;
  };
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]),
  );
}

const ORDERS = permutations(["Account/default", ...THINGS.map(([name]) => `Thing/${name}`)]);

describe("deleting an Account and the resources using it together", () => {
  it.each(ORDERS.map((order, i) => ({ order: order.join(" "), i })))(
    "finishes, children first, for the deletes in the order $order",
    async ({ order, i }) => {
      const pick = random(i);
      const hrefs = Object.fromEntries(THINGS.map(([n]) => [n, kube.get("Thing", NS, n)!.status!.href!]));
      for (const item of order.split(" ")) {
        const [kind = "", name = ""] = item.split("/");
        kube.delete(kind, NS, name);
        // Some reconciles between two deletes, as the events arrive.
        for (let n = pick(4); n > 0; n--) {
          const all = keys();
          if (all.length > 0) await reconcileKey(all[pick(all.length)]!);
        }
      }
      await settle(pick);
      expect(keys()).toEqual([]);
      expect(cloud.objects.size).toBe(0);
      const at = (name: string) => cloud.deleted.indexOf(hrefs[name]!);
      expect(at("main-a")).toBeLessThan(at("main"));
      expect(at("main-b")).toBeLessThan(at("main"));
      expect(at("main")).toBeLessThan(at("web"));
      expect(waitedForAccount).toEqual([]);
    },
  );

  it("the Secret deleted first (a namespace deletion): the credentials kept in memory delete everything", async () => {
    kube.secrets.clear();
    await accounts.reconcile(NS, "default"); // the Account's next check fails: SecretNotFound
    expect(getCondition(kube.get("Account", NS, "default")?.status?.conditions, "Ready")?.reason).toBe(
      Reason.SecretNotFound,
    );
    for (const k of keys()) {
      const [kind = "", , name = ""] = k.split("/");
      kube.delete(kind, NS, name);
    }
    await settle(random(7));
    expect(keys()).toEqual([]);
    expect(cloud.objects.size).toBe(0);
  });

  it("the Account says whom it waits for; a resource not being deleted waits for nothing it cannot get", async () => {
    kube.delete("Account", NS, "default");
    kube.delete("Thing", NS, "main-a");
    await accounts.reconcile(NS, "default");
    const account = getCondition(kube.get("Account", NS, "default")?.status?.conditions, "Ready");
    expect(account).toMatchObject({ status: "False", reason: "DeletionBlocked" });
    expect(account?.message).toBe(
      "still used by 3 resources not being deleted: Thing main, Thing main-b, Thing web; delete them or " +
        "change their spec.accountRef; also waiting for 1 dependent being deleted: Thing main-a (deleting)",
    );
    await reconciler.reconcile(NS, "main-b");
    expect(getCondition(kube.get("Thing", NS, "main-b")?.status?.conditions, "Ready")).toMatchObject({
      reason: "DependencyNotReady",
      message: `spec.accountRef: Account default is not ready: ${ACCOUNT_DELETING}`,
    });
    await reconciler.reconcile(NS, "main-a");
    expect(kube.get("Thing", NS, "main-a")).toBeUndefined();
    await accounts.reconcile(NS, "default");
    expect(kube.get("Account", NS, "default")?.metadata.finalizers).toEqual(["cloud.svc.io/finalizer"]);
  });

  it("no credentials at all (a restart after the Secret went): the resources say so; Orphan releases them", async () => {
    kube.secrets.clear();
    for (const k of keys()) {
      const [kind = "", , name = ""] = k.split("/");
      kube.delete(kind, NS, name);
    }
    start(); // a new operator process: nothing kept in memory
    await settle(random(3));
    // Bounded: no hot loop, no backoff growing without end.
    const again = await reconciler.reconcile(NS, "main-a");
    // Blocked on the Account, not an error of this resource: Synced=False, retried without backoff growth.
    expect(again).toMatchObject({ outcome: "waiting", retry: false });
    expect(again.requeueAfterMs).toBeGreaterThanOrEqual(2_000);
    expect(again.requeueAfterMs).toBeLessThanOrEqual(60_000);
    const leaf = kube.get("Thing", NS, "main-a")!;
    expect(getCondition(leaf.status?.conditions, "Synced")).toMatchObject({
      status: "False",
      reason: "SecretNotFound",
    });
    expect(getCondition(leaf.status?.conditions, "Ready")).toMatchObject({
      reason: "SecretNotFound",
      message: expect.stringMatching(
        /^cannot delete \/api\/things\/\d+: Account default has no working credentials: Secret creds not found, .*set spec\.deletionPolicy: Orphan/,
      ),
    });
    expect(getCondition(kube.get("Account", NS, "default")?.status?.conditions, "Ready")?.message).toMatch(
      /^waiting for 4 dependents being deleted: .*; they cannot delete their service objects: Secret creds not found/,
    );
    for (const [name] of THINGS) {
      const o = kube.get("Thing", NS, name)!;
      kube.put("Thing", { ...o, spec: { ...(o.spec as object), deletionPolicy: "Orphan" } });
    }
    await settle(random(4));
    expect(keys()).toEqual([]);
    expect(cloud.objects.size).toBe(THINGS.length);
  });
});
