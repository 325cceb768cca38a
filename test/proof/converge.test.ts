// Issue 9 item 4 (small scale of item 1): 100 mixed resources of every kind, with references,
// applied children-first, converge to Ready with the operator as a child process, built as the
// image ships it (the scripts/build.ts bundle); then one resync costs a few index calls, and
// deleting everything leaves the simulator empty.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../../scripts/build.ts";
import { managedKinds } from "../../src/kinds/index.ts";
import { mixedSet } from "./mixed.ts";
import {
  accountNamespace,
  applyManifest,
  deleteManifest,
  isReady,
  listAll,
  OperatorProcess,
  pool,
  type Rig,
  startRig,
  until,
} from "./rig.ts";
import { apiCalls, callsSince, isIndexRoute, mutatingCalls, type SimStats } from "./sim.ts";
import { baseline, countCreated, duplicates } from "./sim-objects.ts";
import { WriteLog } from "./write-log.ts";

const KINDS = managedKinds.map((k) => k.kind);
let dir: string;
let rig: Rig;
const writes = new WriteLog();
let operator: OperatorProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "proof-converge-"));
  const dist = join(dir, "dist");
  await buildBundle(dist);
  rig = await startRig({ dir, onWrite: writes.onWrite });
  operator = new OperatorProcess(
    rig,
    { concurrency: "16", "api-rate": "10000", resync: "1h" },
    join(dist, "cli.js"),
  );
  await operator.start();
}, 60_000);

afterAll(async () => {
  await operator?.kill("SIGTERM");
  await rig?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The audit entries the operator made (its summaries begin with its name). */
function operatorEntries(r: Rig): number {
  const entries = (r.sim.store.snapshot() as { audit_entries?: { summary: string }[] }).audit_entries ?? [];
  return entries.filter((e) => e.summary.startsWith("svc-operator ")).length;
}

describe("100 mixed resources", () => {
  it("converge, resync cheaply and delete cleanly", async () => {
    const ns = "proof";
    await accountNamespace(rig, ns);
    const seed = baseline(rig.sim);
    const set = mixedSet(100, "c");
    expect(new Set(set.map((m) => m.kind))).toEqual(new Set(KINDS));

    // Applied with the operator stopped, then started: the backlog is worked as after an apply of
    // a whole set (the calls do not depend on how fast this machine applies it).
    await operator.kill("SIGTERM");
    await pool([...set].reverse(), 16, (m) => applyManifest(rig, ns, m));
    const calls0 = structuredClone(rig.sim.core.stats.report()) as SimStats;
    writes.counting = true;
    await operator.start();
    let last: string[] = [];
    await until(
      "all Ready",
      async () => {
        const all = await listAll(rig, ns, KINDS);
        last = all
          .filter((o) => !isReady(o))
          .map(
            (o) =>
              `${o.kind}/${o.metadata.name}: ${JSON.stringify(o.status?.conditions?.find((c) => c.type === "Ready"))}`,
          );
        return all.length === set.length && last.length === 0;
      },
      90_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; not Ready: ${last.slice(0, 5).join("; ")}`);
    });
    expect(duplicates(rig.sim, seed)).toEqual([]);
    expect(countCreated(rig.sim, seed)).toBe(set.length);
    // The audit trail: one entry per object, each made with its first detail (one call per created
    // object). Its calls trail the reconciles (off their critical path): the quiet period starts
    // once they are done.
    await until("one audit entry per object", async () => operatorEntries(rig) === set.length, 30_000);
    const stats = rig.sim.core.stats.report() as SimStats;
    const auditCalls = stats.requests
      .filter((r) => r.route.startsWith("/api/audit_entries"))
      .reduce((n, r) => n + r.count, 0);
    expect(auditCalls).toBe(set.length);
    // Needed calls only (issue 15): created objects are read through batched index reads, not a
    // show each; the audit trail's one call per created object apart. The set needs 1.15 per
    // resource; at 100 the Account's one-time checks (links, clouds, volume types, metrics: about
    // 0.12) and the permissions' observer-first chain (4 grants: 4 creates, 4 index reads) weigh
    // more than at 1,000. Measured: 1.47 in all (159 calls for 108 resources): 131 calls that are
    // not index reads (1.21 per resource) and 28 index reads of 19 collections. How many reads a
    // batch window gathers depends on how fast this machine reconciles (a loaded machine splits
    // windows: up to 1.61 in all; 39 index reads of 17 collections in one CI run), so the reads are
    // bounded per collection: 3 each, half the 100 a show per created object would take.
    const delta = callsSince(calls0, stats);
    const indexReads = delta.filter((r) => r.method === "GET" && isIndexRoute(r.route));
    const collections = new Set(indexReads.map((r) => r.route)).size;
    const reads = indexReads.reduce((n, r) => n + r.count, 0);
    const others = delta.reduce((n, r) => n + r.count, 0) - reads - auditCalls;
    expect(others / set.length).toBeLessThanOrEqual(1.25);
    expect(reads).toBeLessThanOrEqual(3 * collections);
    // Kubernetes writes per created resource: intent (finalizer + create-pending), the href
    // annotation, the status; no Event for a create, no status while a new resource's references
    // are on their way. A subnet's pending state is one status more, and the audit trail records
    // its entry in status (counted apart).
    writes.counting = false;
    const operatorWrites = writes.resourceWrites - writes.auditWrites;
    expect(writes.auditWrites).toBeLessThanOrEqual(set.length);
    // Events: the Account's on the operator's start, and what a user should see (a permission
    // waiting for the observer grant), not one per create.
    expect(writes.eventWrites / set.length).toBeLessThanOrEqual(0.05);
    expect(operatorWrites / set.length).toBeLessThanOrEqual(3.2);

    // In sync now: a quiet period makes no mutating call.
    const before = rig.sim.core.stats.report();
    await new Promise((r) => setTimeout(r, 1500));
    expect(mutatingCalls(rig.sim.core.stats.report()) - mutatingCalls(before)).toBe(0);
    expect(apiCalls(rig.sim.core.stats.report()) - apiCalls(before)).toBeLessThan(10);

    await pool(set, 16, (m) => deleteManifest(rig, ns, m));
    await until("all deleted", async () => (await listAll(rig, ns, KINDS)).length === 0, 90_000);
    expect(countCreated(rig.sim, seed)).toBe(0);
  }, 200_000);
});
