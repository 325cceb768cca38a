/** The request counts `/__sim/stats` (and `sim.core.stats.report()`) answer. */
export interface SimStats {
  requests: { method: string; route: string; status: number; count: number }[];
  /** Requests in progress at most at once since the start (or the last reset). */
  peakInFlight?: number;
  /** Sum of the requests' times from arrival to answer, ms. */
  busyMs?: number;
}

/** Routes that authenticate: a POST there changes nothing in the account. */
const AUTH_ROUTE = /oauth2|session/;

/**
 * Calls that could change the account's objects (any non-GET to /api/ but the auth routes):
 * those the service accepted (status < 400), refused (>= 400), or all of them.
 */
export function mutatingCalls(stats: unknown, which: "accepted" | "refused" | "all" = "all"): number {
  return (stats as SimStats).requests
    .filter((r) => r.method !== "GET" && r.route.startsWith("/api/") && !AUTH_ROUTE.test(r.route))
    .filter((r) => which === "all" || (which === "accepted" ? r.status < 400 : r.status >= 400))
    .reduce((n, r) => n + r.count, 0);
}

/** Every call to /api/ (what a figure of "API calls" counts). */
export function apiCalls(stats: unknown): number {
  return (stats as SimStats).requests
    .filter((r) => r.route.startsWith("/api/"))
    .reduce((n, r) => n + r.count, 0);
}

/** The calls to /api/ made between two reports, by method, route and status. */
export function callsSince(before: SimStats, after: SimStats): SimStats["requests"] {
  const key = (r: { method: string; route: string; status: number }) => `${r.method} ${r.route} ${r.status}`;
  const earlier = new Map(before.requests.map((r) => [key(r), r.count]));
  return after.requests
    .filter((r) => r.route.startsWith("/api/"))
    .map((r) => ({ ...r, count: r.count - (earlier.get(key(r)) ?? 0) }))
    .filter((r) => r.count > 0);
}

/** A read of a collection (`/api/routes`, `/api/clouds/:cloud_id/subnets`), not of one object by id. */
export function isIndexRoute(route: string): boolean {
  return !/\/:\w+$/.test(route);
}
