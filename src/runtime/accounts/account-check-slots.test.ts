// An Account's credentials check against an endpoint that accepts connections and never answers
// holds no reconcile slot while it waits (Workers.lend), and an Account whose check failed is
// retried behind other work: asserted by order, with a check that never settles until released.
import pino from "pino";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { type Clock, systemClock } from "../../lib/index.ts";
import { ReferenceIndex } from "../indexes/index.ts";
import { defaultBackoff, Workers } from "../manager/index.ts";
import type { AccountKind } from "../sdk/index.ts";
import { parseKey } from "../sdk/index.ts";
import type { OperatorMetrics } from "../telemetry/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { AccountController } from "./accounts.ts";

const metrics = {
  leader: { set: () => {} },
  queueDepth: { set: () => {} },
  retries: { inc: () => {} },
} as unknown as OperatorMetrics;

/** Checks of the endpoints named `hang` wait for `release`; `fail` fails them once released. */
class Endpoints {
  hanging = 0;
  failing = new Set<string>();
  private releases: (() => void)[] = [];

  release(): void {
    for (const r of this.releases.splice(0)) r();
  }

  kind(): AccountKind<{ endpoint: string }, string, { endpoint: string }> {
    return {
      schema: z.object({ endpoint: z.string() }),
      credentials: async () => "token",
      connect: (spec) => ({ endpoint: spec.endpoint }),
      verify: async ({ endpoint }) => {
        if (endpoint === "hang") {
          this.hanging++;
          await new Promise<void>((r) => this.releases.push(r));
          this.hanging--;
        }
        if (this.failing.has(endpoint)) throw new Error(`${endpoint} did not answer`);
        return { host: endpoint };
      },
      close: async () => {},
    };
  }
}

function account(kube: FakeKube, namespace: string, name: string, endpoint: string): void {
  kube.put("Account", { metadata: { name, namespace }, spec: { endpoint } });
}

function operatorParts(endpoints: Endpoints, concurrency: number, clock: Clock = systemClock) {
  const kube = new FakeKube();
  /** Keys as their reconciles started, and as they ended. */
  const started: string[] = [];
  const done: string[] = [];
  // Built below: the controller lends through the workers, the workers reconcile through it.
  let workers!: Workers;
  const accounts = new AccountController(endpoints.kind() as AccountKind<unknown, unknown, unknown>, {
    store: kube,
    kube,
    refs: new ReferenceIndex(),
    events: { emit: () => {} },
    clock,
    log: pino({ level: "silent" }),
    resyncMs: 3_600_000,
    lend: (wait) => workers.lend(wait),
  });
  workers = new Workers({
    clock,
    log: pino({ level: "silent" }),
    metrics,
    identity: "t",
    concurrency,
    resyncMs: 3_600_000,
    resync: () => {},
    // As the operator's: Accounts first unless their last check failed.
    priority: (key) =>
      parseKey(key).kind !== "Account" ? 1 : accounts.failing(key) ? 0 : Number.MAX_SAFE_INTEGER,
    enqueueAll: () => {},
    reconcile: async (key) => {
      started.push(key);
      const { kind, namespace, name } = parseKey(key);
      const result = kind === "Account" ? await accounts.reconcile(namespace, name) : {};
      done.push(key);
      return result;
    },
  });
  return { kube, accounts, workers, started, done };
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe("an Account's credentials check that hangs", () => {
  it("holds no reconcile slot: with one slot and three checks hanging, another namespace is served", async () => {
    const endpoints = new Endpoints();
    const { kube, workers, done } = operatorParts(endpoints, 1);
    workers.start();
    try {
      for (const name of ["x", "y", "z"]) account(kube, "a", name, "hang");
      account(kube, "b", "default", "works");
      for (const name of ["x", "y", "z"]) workers.queue!.add(`Account/a/${name}`);
      workers.queue!.add("Account/b/default");
      workers.queue!.add("Widget/b/web");
      await until("b's keys reconciled", () => done.length === 2);
      // b's Account and its resource are done while all three of a's checks still hang.
      expect([...done].sort()).toEqual(["Account/b/default", "Widget/b/web"]);
      expect(endpoints.hanging).toBe(3);
      endpoints.release();
      await until("a's Accounts reconciled", () => done.length === 5);
      expect(
        kube.get("Account", "a", "x")?.status?.conditions?.find((c) => c.type === "Ready"),
      ).toMatchObject({ status: "True" });
    } finally {
      endpoints.release();
      await workers.stop(1_000);
    }
  });

  it("a failed check is retried behind other work, not in the Accounts' lane ahead of it", async () => {
    const endpoints = new Endpoints();
    endpoints.failing.add("down");
    const clock = new FakeClock();
    const { kube, accounts, workers, started, done } = operatorParts(endpoints, 1, clock);
    account(kube, "a", "down", "down");
    account(kube, "b", "default", "works");
    workers.start();
    try {
      workers.queue!.add("Account/a/down");
      await until("a's first check", () => done.length === 1);
      expect(accounts.failing("Account/a/down")).toBe(true);
      expect(kube.get("Account", "a", "down")?.status?.conditions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: "Synced", status: "False", reason: "ReconcileError" }),
          expect.objectContaining({ type: "Ready", status: "False", reason: "ApiError" }),
        ]),
      );
      // b's first resource starts (the one slot), the others wait; then a's retry comes due: it
      // starts after them, not ahead as an Account that works would.
      for (const name of ["one", "two", "three"]) workers.queue!.add(`Widget/b/${name}`);
      clock.advance(defaultBackoff.baseMs);
      await until("the retry", () => done.length === 5);
      expect(started).toEqual([
        "Account/a/down",
        "Widget/b/one",
        "Widget/b/two",
        "Widget/b/three",
        "Account/a/down",
      ]);
      // Once its check passes it is first again.
      endpoints.failing.clear();
      clock.advance(2 * defaultBackoff.baseMs);
      await until("the second retry", () => done.length === 6);
      expect(accounts.failing("Account/a/down")).toBe(false);
    } finally {
      await workers.stop(1_000);
    }
  });
});
