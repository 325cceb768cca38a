// What an operator restart costs over a set it has converged (issue 39): the operator is SIGKILLed
// once its audit trail has caught up, and started again; the figures are the service calls of its
// first minute (by route, and per index scope), the custom resource and Event writes it makes, how
// soon /readyz answers 200, and how soon every resource is confirmed in sync.
import type { Manifest } from "../../test/proof/mixed.ts";
import { type OperatorProcess, type Rig, until } from "../../test/proof/rig.ts";
import { isIndexRoute } from "../../test/proof/sim.ts";
import type { WriteLog } from "../../test/proof/write-log.ts";
import { byRoute, routeDiff, type Service, untilSteady } from "./scale-service.ts";

/** How long neither an audit call nor a Kubernetes write may come before the restart: caught up. */
const QUIET_MS = 3_000;
/** The window the calls are counted in, from the new process's start. */
const FIRST_MINUTE_MS = 60_000;
/**
 * The restarted operator runs with the shipped drift-detection period (10m): the bench's 5 s
 * period would put a dozen resyncs' index calls into the first minute, which are not the restart's.
 */
const SHIPPED_RESYNC = "10m";
/** Routes that sign in (an Account's token grant or session): the Account's scope. */
const AUTH_ROUTE = /oauth2|session/;
/** An Account's credentials check (src/kinds/account/kind.ts: a filtered index of Deployments). */
const ACCOUNT_CHECK = "GET /api/deployments";

export interface RestartSubject {
  rig: Rig;
  op: OperatorProcess;
  service: Service;
  /** The devcluster's write log (its `counting` is switched on for the restart). */
  writes: WriteLog;
  /** The converged set, all Ready. */
  set: Manifest[];
}

/**
 * SIGKILLs the operator once the audit trail has caught up, starts it again and measures the
 * restart. Answers figures named `restart.*`; leaves the operator running.
 */
export async function measureRestart(subject: RestartSubject): Promise<Record<string, unknown>> {
  const { op, service, writes, set } = subject;
  const caughtUpMs = await waitCaughtUp(service, writes);
  // The converge's peak is read when the last resource is Ready; the trail's catch-up comes after.
  const peakWithTrailMb = await op.peakRssMb();
  await op.kill("SIGKILL");
  const routes0 = await byRoute(service);
  writes.reset();
  writes.counting = true;
  const started = performance.now();
  await op.start({ resync: SHIPPED_RESYNC });
  const readyzMs = await untilReadyz(op, started);
  const confirmedMs = await untilConfirmed(op, set.length, started);
  const left = FIRST_MINUTE_MS - (performance.now() - started);
  if (left > 0) await new Promise((r) => setTimeout(r, left));
  const routes = routeDiff(routes0, await byRoute(service));
  writes.counting = false;
  const reconciles = await op.series("svc_operator_reconcile_total");
  const scopes = perScope(routes, set);
  return {
    "restart.caughtUpWaitMs": Math.round(caughtUpMs),
    "restart.peakRssMbUntilCaughtUp": peakWithTrailMb,
    "restart.callsFirstMinute": Object.values(routes).reduce((n, c) => n + c, 0),
    "restart.callsFirstMinuteByRoute": routes,
    "restart.callsPerIndexScope": scopes,
    "restart.maxCallsPerIndexScope": Math.max(0, ...Object.values(scopes)),
    "restart.callsGoal": "<= 2 per index scope (kind, Account and cloud), flat in N",
    "restart.resourceWrites": writes.resourceWrites,
    "restart.accountWrites": writes.accountWrites,
    "restart.eventWrites": writes.eventWrites,
    ...(writes.events.length > 0 ? { "restart.events": [...writes.events] } : {}),
    "restart.writesGoal": "0 resource and Account writes, 0 Events",
    "restart.readyzSeconds": +(readyzMs / 1000).toFixed(2),
    "restart.confirmedSeconds": +(confirmedMs / 1000).toFixed(2),
    // The restarted process's peak: its first list of every object, then a reconcile of each.
    "restart.operatorPeakRssMb": await op.peakRssMb(),
    "restart.reconcilesFirstMinute": Object.fromEntries(
      Object.entries(reconciles).filter(([labels, n]) => n > 0 && !labels.includes('kind="Account"')),
    ),
  };
}

/**
 * Waits until neither an audit call reaches the service nor a custom resource or Event is
 * written for QUIET_MS (the operator exposes no count of its audit queue): the set is in sync and
 * its trail written, so what follows the restart is the restart's. Answers how long it waited.
 */
async function waitCaughtUp(service: Service, writes: WriteLog): Promise<number> {
  writes.reset();
  writes.counting = true;
  const reading = async () => {
    const routes = await byRoute(service);
    const audit = Object.entries(routes)
      .filter(([route]) => route.includes("/api/audit_entries"))
      .reduce((n, [, c]) => n + c, 0);
    return `${audit} ${writes.resourceWrites} ${writes.accountWrites} ${writes.eventWrites}`;
  };
  const waited = await untilSteady(
    "the audit trail and the operator's writes to stop",
    reading,
    QUIET_MS,
    600_000,
    250,
  );
  writes.counting = false;
  return waited;
}

/** Time from the process's start until /readyz answers 200. */
async function untilReadyz(op: OperatorProcess, started: number): Promise<number> {
  const url = `http://127.0.0.1:${op.metricsPort}/readyz`;
  await until(
    "the restarted operator's /readyz",
    () =>
      fetch(url).then(
        async (r) => {
          await r.arrayBuffer();
          return r.ok;
        },
        () => false,
      ),
    120_000,
    20,
  );
  return performance.now() - started;
}

/**
 * Time from the process's start until it has confirmed every resource of the set in sync: its
 * count of reconciles that found a managed resource Ready reaches the set's size.
 */
async function untilConfirmed(op: OperatorProcess, resources: number, started: number): Promise<number> {
  await until(
    "every resource confirmed by the restarted operator",
    async () =>
      (await op.metric("svc_operator_reconcile_total", 'result="ready"', 'kind="Account"')) >= resources,
    600_000,
    50,
  );
  return performance.now() - started;
}

/**
 * Calls per index scope: a collection route's calls over the scopes of it the set has (the set
 * has one Account; a per-cloud route, `/api/clouds/:cloud_id/...`, has one scope per cloud of
 * the set); sign-ins and the credentials check under the Account. Reads of single objects are
 * counted under their own route.
 */
function perScope(routes: Record<string, number>, set: Manifest[]): Record<string, number> {
  const clouds = new Set(set.map((m) => m.spec.cloudHref).filter((c) => c !== undefined)).size;
  const out: Record<string, number> = {};
  const checks = Math.min(1, routes[ACCOUNT_CHECK] ?? 0);
  if (checks > 0) out.Account = checks;
  for (const [key, all] of Object.entries(routes)) {
    const route = key.slice(key.indexOf(" ") + 1);
    const calls = key === ACCOUNT_CHECK ? all - checks : all;
    if (calls === 0) continue;
    if (AUTH_ROUTE.test(route)) out.Account = (out.Account ?? 0) + calls;
    else if (route.startsWith("/api/audit_entries")) out[key] = calls;
    else if (isIndexRoute(route)) out[key] = +(calls / (route.includes(":cloud_id") ? clouds : 1)).toFixed(1);
    else out[key] = calls;
  }
  return out;
}
