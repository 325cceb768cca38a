// Fairness between tenants: how long a fresh namespace's Account and its 30 AlertSpecs take to be
// Ready, alone and while another namespace has 8 or 40 Accounts pointing at an endpoint that
// accepts connections and never answers (a local TCP server), at the default --concurrency 8 and
// --api-first-byte-timeout. Goal: within 2x the time alone. Each case is a fresh operator (and
// devcluster and simulator, in child processes), the simulator answering in 20 ms; the hostile
// Accounts are created first, and the fresh namespace once the server holds as many of their
// connections as there are reconcile slots (every check started, or every slot taken by one).
// Per case, BENCH_TENANTS_RUNS fresh namespaces one after the other (default 5, all well within
// the hostile checks' first timeout) and the median of each time; a namespace not Ready within
// BENCH_TENANTS_BOUND_S (default 120) is reported as not Ready, and ends its case.
import { pathToFileURL } from "node:url";
import pino from "pino";
import type { ManagedObject } from "../src/runtime/sdk/index.ts";
import { GROUP, VERSION } from "../src/runtime/sdk/index.ts";
import { SilentServer } from "../test/support/silent-server.ts";
import { medianRunBy } from "./lib/median-run.ts";
import { type OperatorRig, pool, ready, startOperatorRig, until } from "./lib/operator-rig.ts";

const CONCURRENCY = 8;
const ALERTS = 30;
const LATENCY_MS = 20;
const RUNS = Number(process.env.BENCH_TENANTS_RUNS ?? 5);
const BOUND_MS = Number(process.env.BENCH_TENANTS_BOUND_S ?? 120) * 1000;
const ALERT = {
  subjectHref: "/api/servers/1",
  file: "cpu-0/cpu-idle",
  variable: "value",
  condition: "<",
  threshold: "10",
  duration: 5,
  escalationName: "critical",
};

/** One fresh namespace: ms from its first write to its Account Ready, and to all its AlertSpecs Ready. */
interface Run {
  accountReadyMs: number | undefined;
  alertSpecsReadyMs: number | undefined;
  /** AlertSpecs Ready when the bound ran out (all of them when it did not). */
  alertSpecsReady: number;
}

interface Case {
  hostileAccounts: number;
  runs: Run[];
}

const collection = (ns: string, plural: string) => `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${plural}`;

async function namespaceWithSecret(rig: OperatorRig, ns: string): Promise<void> {
  await rig.raw.call("POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: ns },
  });
  await rig.raw.call("POST", `/api/v1/namespaces/${ns}/secrets`, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "creds" },
    stringData: { refreshToken: "dev-refresh-token" },
  });
}

function createAccount(rig: OperatorRig, ns: string, name: string, endpoint: string): Promise<unknown> {
  return rig.raw.call("POST", collection(ns, "accounts"), {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: "Account",
    metadata: { name },
    spec: {
      endpoint,
      accountId: 1,
      oauth: { refreshTokenSecretRef: { name: "creds", key: "refreshToken" } },
    },
  });
}

/** A namespace whose Accounts all point at the silent server; resolves once their checks hold the slots. */
async function hostileTenant(rig: OperatorRig, silent: SilentServer, url: string, accounts: number) {
  await namespaceWithSecret(rig, "hostile");
  const names = Array.from({ length: accounts }, (_, i) => `unreachable-${i}`);
  await pool(names, 8, (name) => createAccount(rig, "hostile", name, url));
  await until(
    "the hostile checks holding connections",
    () => silent.open.size >= Math.min(accounts, CONCURRENCY),
    60_000,
  );
}

/** Creates a fresh namespace with an Account and its AlertSpecs, and times them to Ready. */
async function freshTenant(rig: OperatorRig, ns: string): Promise<Run> {
  const inNs = (o: ManagedObject) => o.metadata.namespace === ns;
  const started = performance.now();
  await namespaceWithSecret(rig, ns);
  await createAccount(rig, ns, "default", rig.infra.simUrl);
  await pool(
    Array.from({ length: ALERTS }, (_, i) => `alert-${i}`),
    8,
    (name) =>
      rig.raw.call("POST", collection(ns, "alertspecs"), {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: "AlertSpec",
        metadata: { name },
        spec: ALERT,
      }),
  );
  const store = rig.operator.store;
  let accountReadyMs: number | undefined;
  let alertSpecsReady = 0;
  for (;;) {
    const elapsed = performance.now() - started;
    if (accountReadyMs === undefined && store.list("Account").some((o) => inNs(o) && ready(o)))
      accountReadyMs = elapsed;
    alertSpecsReady = store.list("AlertSpec").filter((o) => inNs(o) && ready(o)).length;
    if (alertSpecsReady === ALERTS && accountReadyMs !== undefined)
      return { accountReadyMs, alertSpecsReadyMs: elapsed, alertSpecsReady };
    if (elapsed > BOUND_MS) return { accountReadyMs, alertSpecsReadyMs: undefined, alertSpecsReady };
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function runCase(hostileAccounts: number): Promise<Case> {
  const silent = new SilentServer();
  const url = await silent.listen();
  // Errors only: the hostile Accounts' failures are expected, a line each once the server closes.
  const rig = await startOperatorRig({
    latencyMs: LATENCY_MS,
    concurrency: CONCURRENCY,
    log: pino({ level: "error" }),
  });
  const runs: Run[] = [];
  try {
    if (hostileAccounts > 0) await hostileTenant(rig, silent, url, hostileAccounts);
    for (let i = 0; i < RUNS; i++) {
      const run = await freshTenant(rig, `fresh-${i}`);
      runs.push(run);
      process.stdout.write(`  ${hostileAccounts} hostile Accounts, fresh namespace ${i}: ${describe(run)}\n`);
      if (run.alertSpecsReadyMs === undefined) break;
    }
  } finally {
    // Closed first: the checks waiting on it end, and the operator stops without waiting for them.
    await silent.close();
    await rig.close();
  }
  return { hostileAccounts, runs };
}

function describe(run: Run): string {
  const ms = (v: number | undefined) =>
    v === undefined ? `not Ready after ${BOUND_MS / 1000} s` : `${Math.round(v)} ms`;
  return `Account ${ms(run.accountReadyMs)}, ${run.alertSpecsReady}/${ALERTS} AlertSpecs ${ms(run.alertSpecsReadyMs)}`;
}

/** The median of a time over a case's runs, a run not Ready counting as the longest. */
function median(c: Case, time: (run: Run) => number | undefined): number | undefined {
  return time(medianRunBy(c.runs, (r) => time(r) ?? Number.POSITIVE_INFINITY));
}

const round = (v: number | undefined) => (v === undefined ? null : Math.round(v));
const ratio = (v: number | undefined, alone: number | undefined) =>
  v === undefined || alone === undefined ? null : +(v / alone).toFixed(2);

export async function run(): Promise<Record<string, unknown>> {
  const cases: Case[] = [];
  for (const hostile of [0, 8, 40]) cases.push(await runCase(hostile));
  const account = cases.map((c) => median(c, (r) => r.accountReadyMs));
  const alerts = cases.map((c) => median(c, (r) => r.alertSpecsReadyMs));
  // AlertSpecs Ready in the last run of a case (all of them, unless the bound ran out).
  const alertsReady = cases.map((c) => c.runs.at(-1)?.alertSpecsReady);
  const figures: Record<string, unknown> = {
    concurrency: CONCURRENCY,
    alertSpecs: ALERTS,
    latencyMs: LATENCY_MS,
    runsPerCase: RUNS,
    boundS: BOUND_MS / 1000,
    aloneAccountReadyMs: round(account[0]),
    aloneAlertSpecsReadyMs: round(alerts[0]),
    with8AccountReadyMs: round(account[1]),
    with8AlertSpecsReadyMs: round(alerts[1]),
    with8AlertSpecsReady: alertsReady[1],
    with40AccountReadyMs: round(account[2]),
    with40AlertSpecsReadyMs: round(alerts[2]),
    with40AlertSpecsReady: alertsReady[2],
    // Goal: at most 2. Null: not Ready within the bound.
    with8AccountRatio: ratio(account[1], account[0]),
    with8AlertSpecsRatio: ratio(alerts[1], alerts[0]),
    with40AccountRatio: ratio(account[2], account[0]),
    with40AlertSpecsRatio: ratio(alerts[2], alerts[0]),
    goalRatio: 2,
  };
  console.log(figures);
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
