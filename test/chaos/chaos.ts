// Issue 9 item 2: the mixed set under faults. API faults on the simulator (500, 503, 429 with
// Retry-After, commit-then-drop, latency jitter), the operator (a child process) SIGKILLed at
// random moments and restarted, the devcluster's watches cut and the devcluster restarted from
// its state file; then everything is deleted. The verdict lists every broken promise.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { managedKinds } from "../../src/kinds/index.ts";
import { mixedSet } from "../proof/mixed.ts";
import {
  accountNamespace,
  applyManifest,
  deleteManifest,
  isReady,
  listAll,
  OperatorProcess,
  pool,
  REFRESH_TOKEN,
  setFaults,
  startRig,
  until,
  waitAccountReady,
} from "../proof/rig.ts";
import type { SimStats } from "../proof/sim.ts";
import { baseline, countCreated, createdObjects, duplicates } from "../proof/sim-objects.ts";

export interface ChaosOptions {
  /** Resources in the mixed set (whole units of every kind). */
  size: number;
  /** How long the disruptions (kills, watch cuts, devcluster restarts) go on. */
  durationMs: number;
  /** Mean pause between two disruptions. */
  meanGapMs?: number;
  /** How long convergence and deletion may take each. */
  timeoutMs?: number;
  random?: () => number;
  log?: (line: string) => void;
}

export interface ChaosResult {
  passed: boolean;
  failures: string[];
  figures: Record<string, unknown>;
}

/** The service faults of the issue: 20% of calls fail, 5% of creates commit then drop, 200 ms jitter. */
export const API_FAULTS = {
  error500: 0.07,
  error503: 0.07,
  throttle429: 0.06,
  retryAfterSeconds: 1,
  commitThenDrop: 0.05,
  jitterMs: 200,
};

const KINDS = managedKinds.map((k) => k.kind);
const NS = "chaos";

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 300_000;
  const meanGapMs = options.meanGapMs ?? 3000;
  const dir = await mkdtemp(join(tmpdir(), "chaos-"));
  const rig = await startRig({ dir, persist: true });
  const op = new OperatorProcess(rig, { concurrency: "16", "api-rate": "10000", resync: "10s" });
  const failures: string[] = [];
  const figures: Record<string, unknown> = {};
  const counts = { operatorKills: 0, watchCuts: 0, watchesCut: 0, devclusterRestarts: 0 };
  const seenDuplicates = new Set<string>();
  const everReady = new Set<string>();
  let chaosOn = true;
  try {
    await op.start();
    await accountNamespace(rig, NS);
    await waitAccountReady(rig, NS);
    const seed = baseline(rig.sim);
    const set = mixedSet(options.size, "x");
    figures.resources = set.length;
    await setFaults(rig, API_FAULTS);
    const started = performance.now();

    const firstPicks = [0.1, 0.5, 0.9].sort(() => random() - 0.5);
    // Set once each kind of disruption has happened and the operator is back: the run does not
    // count as converged before that, or a fast convergence would end the chaos before it began.
    let firstRoundDone = false;
    // Until the last disruption ended: the run stops disrupting once every resource is deleted,
    // which may come before `durationMs` is over.
    let disruptedForMs = 0;
    // Disruptions, one at a time at random moments, until the duration is over.
    const disruptions = (async () => {
      // Each kind of disruption happens at least once, however short the duration.
      const going = () =>
        chaosOn && (firstPicks.length > 0 || performance.now() - started < options.durationMs);
      while (going()) {
        await sleep(meanGapMs * (0.5 + random()));
        if (!going()) break;
        const pick = firstPicks.length > 0 ? firstPicks.pop()! : random();
        if (pick < 0.4) {
          await op.kill("SIGKILL");
          counts.operatorKills++;
          await sleep(500 * random());
          await op.start();
          log(`operator killed and restarted (#${counts.operatorKills})`);
        } else if (pick < 0.75) {
          counts.watchCuts++;
          counts.watchesCut += rig.cluster.cutWatches(random() < 0.5 ? "reset" : "close");
          log(`watches cut (#${counts.watchCuts})`);
        } else {
          await rig.restartCluster();
          counts.devclusterRestarts++;
          log(`devcluster restarted from its state file (#${counts.devclusterRestarts})`);
        }
        disruptedForMs = performance.now() - started;
        if (firstPicks.length === 0) firstRoundDone = true;
      }
    })();
    // Watches the simulator for a custom resource held twice, all along.
    const watcher = (async () => {
      while (chaosOn) {
        for (const d of duplicates(rig.sim, seed)) seenDuplicates.add(d);
        await sleep(250);
      }
    })();

    await pool([...set].reverse(), 16, (m) => applyManifest(rig, NS, m));
    figures.applyMs = Math.round(performance.now() - started);
    let notReady: string[] = [];
    try {
      await until(
        "every resource Ready",
        async () => {
          const all = await listAll(rig, NS, KINDS);
          for (const o of all) if (isReady(o)) everReady.add(`${o.kind}/${o.metadata.name}`);
          notReady = all
            .filter((o) => !isReady(o))
            .map(
              (o) =>
                `${o.kind}/${o.metadata.name} ${JSON.stringify(o.status?.conditions?.find((c) => c.type === "Ready")?.message)}`,
            );
          return firstRoundDone && all.length === set.length && notReady.length === 0;
        },
        timeoutMs,
        500,
      );
      figures.convergeMs = Math.round(performance.now() - started);
      log(`converged in ${figures.convergeMs} ms`);
    } catch {
      failures.push(
        `not every resource became Ready: ${notReady.length} not Ready, e.g. ${notReady.slice(0, 5).join("; ")}`,
      );
    }
    const missed = set.filter((m) => !everReady.has(`${m.kind}/${m.name}`));
    if (missed.length > 0)
      failures.push(
        `${missed.length} resources never Ready: ${missed
          .slice(0, 5)
          .map((m) => m.name)
          .join(", ")}`,
      );

    const deleteStarted = performance.now();
    await pool(set, 16, (m) => deleteManifest(rig, NS, m));
    let left: string[] = [];
    try {
      await until(
        "every custom resource gone",
        async () => {
          const all = await listAll(rig, NS, KINDS);
          left = all.map(
            (o) =>
              `${o.kind}/${o.metadata.name} finalizers=${JSON.stringify(o.metadata.finalizers ?? [])} ${JSON.stringify(o.status?.conditions?.find((c) => c.type === "Ready")?.message)}`,
          );
          return all.length === 0;
        },
        timeoutMs,
        500,
      );
      figures.deleteMs = Math.round(performance.now() - deleteStarted);
    } catch {
      failures.push(
        `${left.length} custom resources left after deletion, e.g. ${left.slice(0, 5).join("; ")}`,
      );
    }
    chaosOn = false;
    await disruptions;
    await watcher;
    await setFaults(rig, {});

    for (const d of duplicates(rig.sim, seed)) seenDuplicates.add(d);
    if (seenDuplicates.size > 0)
      failures.push(
        `the simulator held two objects for one resource: ${[...seenDuplicates].slice(0, 5).join("; ")}`,
      );
    const leaked = createdObjects(rig.sim, seed);
    const leakedCount = countCreated(rig.sim, seed);
    if (leakedCount > 0)
      failures.push(
        `${leakedCount} service objects left after deletion: ${Object.entries(leaked)
          .filter(([, l]) => l.length > 0)
          .map(([c, l]) => `${c}: ${l.length}`)
          .join(", ")}`,
      );
    const secrets = [REFRESH_TOKEN, rig.cluster.token];
    const leaking = op.lines.filter(
      (l) => secrets.some((s) => l.includes(s)) || /Bearer\s+[A-Za-z0-9._~+/-]{8,}/.test(l),
    );
    if (leaking.length > 0)
      failures.push(`${leaking.length} log lines hold a secret, e.g. ${leaking[0]!.slice(0, 300)}`);

    const stats = rig.sim.core.stats.report() as SimStats;
    const byStatus = (s: number) =>
      stats.requests.filter((r) => r.status === s).reduce((n, r) => n + r.count, 0);
    Object.assign(figures, {
      durationMs: options.durationMs,
      disruptedForMs: Math.round(disruptedForMs),
      apiCalls: stats.requests.filter((r) => r.route.startsWith("/api/")).reduce((n, r) => n + r.count, 0),
      injected500: byStatus(500),
      injected503: byStatus(503),
      injected429: byStatus(429),
      droppedConnections: byStatus(0),
      ...counts,
      operatorStarts: op.starts,
      logLines: op.lines.length,
      duplicatesSeen: seenDuplicates.size,
      leftInService: leakedCount,
    });
  } finally {
    chaosOn = false;
    await op.kill("SIGKILL");
    await rig.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { passed: failures.length === 0, failures, figures };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
