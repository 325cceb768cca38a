import type { V1Lease } from "@kubernetes/client-node";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { ProblemLog } from "../telemetry/index.ts";
import { FakeClock, memoryLog } from "../testing/index.ts";
import { LeaderElector, type LeaseApi } from "./leader.ts";

/** An in-memory Lease endpoint with resourceVersion conflicts. */
function fakeLeases(): LeaseApi & { lease?: V1Lease } {
  let rv = 0;
  const store: { lease?: V1Lease } = {};
  const err = (code: number) => Object.assign(new Error(`HTTP ${code}`), { code });
  return Object.assign(store, {
    readNamespacedLease: async () => {
      if (!store.lease) throw err(404);
      return structuredClone(store.lease);
    },
    createNamespacedLease: async ({ body }: { body: V1Lease }) => {
      if (store.lease) throw err(409);
      store.lease = {
        ...JSON.parse(JSON.stringify(body)),
        metadata: { ...body.metadata, resourceVersion: String(++rv) },
      };
      return store.lease!;
    },
    replaceNamespacedLease: async ({ body }: { body: V1Lease }) => {
      if (store.lease?.metadata?.resourceVersion !== body.metadata?.resourceVersion) throw err(409);
      store.lease = {
        ...JSON.parse(JSON.stringify(body)),
        metadata: { ...body.metadata, resourceVersion: String(++rv) },
      };
      return store.lease!;
    },
  }) as unknown as LeaseApi & { lease?: V1Lease };
}

async function settle(clock: FakeClock, ms: number, step = 100): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.advance(step);
    for (let i = 0; i < 10; i++) await Promise.resolve();
    await new Promise((r) => setImmediate(r));
  }
}

describe("LeaderElector", () => {
  it("one of two candidates leads; the other takes over after the leader stops renewing", async () => {
    const clock = new FakeClock();
    const api = fakeLeases();
    const log = pino({ level: "silent" });
    const state = { a: false, b: false };
    const make = (id: "a" | "b") =>
      new LeaderElector({
        api,
        namespace: "ns",
        name: "lease",
        identity: id,
        leaseDurationMs: 3000,
        clock,
        log,
        onStartedLeading: () => {
          state[id] = true;
        },
        onStoppedLeading: () => {
          state[id] = false;
        },
      });
    const a = make("a");
    const b = make("b");
    a.start();
    await settle(clock, 200);
    b.start();
    await settle(clock, 2000);
    expect(state).toEqual({ a: true, b: false });
    expect(api.lease?.spec?.holderIdentity).toBe("a");
    // a crashes (stops renewing without releasing): b waits a full lease duration, then leads.
    (a as unknown as { stopped: boolean }).stopped = true;
    await settle(clock, 1500);
    expect(state.b).toBe(false);
    await settle(clock, 3000);
    expect(state.b).toBe(true);
    expect(api.lease?.spec?.holderIdentity).toBe("b");
    expect(api.lease?.spec?.leaseTransitions).toBe(1);
    await b.stop();
    expect(state.b).toBe(false);
    expect(api.lease?.spec?.holderIdentity).toBe("");
  });

  it("a leader that cannot renew steps down after the renew deadline", async () => {
    const clock = new FakeClock();
    const api = fakeLeases();
    let leading = false;
    const e = new LeaderElector({
      api,
      namespace: "ns",
      name: "lease",
      identity: "x",
      leaseDurationMs: 3000,
      clock,
      log: pino({ level: "silent" }),
      onStartedLeading: () => {
        leading = true;
      },
      onStoppedLeading: () => {
        leading = false;
      },
    });
    e.start();
    await settle(clock, 500);
    expect(leading).toBe(true);
    api.replaceNamespacedLease = async () => {
      throw Object.assign(new Error("HTTP 500"), { code: 500 });
    };
    await settle(clock, 2500);
    expect(leading).toBe(false);
    await e.stop();
  });
});

describe("LeaderElector when the apiserver refuses the Lease", () => {
  it("logs it once (not at every retry period) naming the verb, and once when it works again", async () => {
    const clock = new FakeClock();
    const api = fakeLeases();
    const { log, lines } = memoryLog("info");
    let refuse = true;
    const forbidden = Object.assign(new Error("HTTP-Code: 403 Headers: {...}"), {
      code: 403,
      body: JSON.stringify({
        kind: "Status",
        message:
          'leases.coordination.k8s.io "lease" is forbidden: User "system:serviceaccount:x:y" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "ns"',
      }),
    });
    const read = api.readNamespacedLease.bind(api);
    api.readNamespacedLease = (async (args: { namespace: string; name: string }) => {
      if (refuse) throw forbidden;
      return read(args);
    }) as LeaseApi["readNamespacedLease"];
    let leading = false;
    const elector = new LeaderElector({
      api,
      namespace: "ns",
      name: "lease",
      identity: "a",
      leaseDurationMs: 3000,
      clock,
      log,
      problems: new ProblemLog({ log, clock, gatherMs: 0 }),
      server: "https://10.0.0.1:6443",
      onStartedLeading: () => {
        leading = true;
      },
      onStoppedLeading: () => {},
    });
    elector.start();
    await settle(clock, 10_000);
    expect(leading).toBe(false);
    expect(lines.map((l) => l.msg)).toEqual([
      expect.stringMatching(
        /^cannot get leases\.coordination\.k8s\.io in namespace ns \(403 Forbidden: .*\); the operator's ServiceAccount lacks `get` on leases\.coordination\.k8s\.io: apply deploy\/operator\/rbac\.yaml$/,
      ),
    ]);
    expect(lines.map((l) => l.msg).join("")).not.toContain("Headers");
    refuse = false;
    await settle(clock, 1000);
    expect(leading).toBe(true);
    expect(lines.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/^resolved: get leases\.coordination\.k8s\.io in namespace ns works again/),
    );
    await elector.stop();
  });
});
