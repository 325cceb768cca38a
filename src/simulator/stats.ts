/**
 * Request counts by method, route template and status, and how many requests were in progress
 * at once (`GET /__sim/stats`): a client's concurrency, as the service sees it.
 */
export class RequestStats {
  private readonly counts = new Map<
    string,
    { method: string; route: string; status: number; count: number }
  >();
  private total = 0;
  private inFlight = 0;
  private peakInFlight = 0;
  /** Sum of the requests' times from arrival to answer: over a window, its growth / the window = requests in progress on average. */
  private busyMs = 0;
  /** Objects created, with when their create arrived (wall clock, ms): `GET /__sim/creates`. */
  private readonly creates: { href: string; at: number }[] = [];

  /** A request arrived. */
  begin(): void {
    this.inFlight += 1;
    if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
  }

  /** A request begun is over (answered, failed or dropped) after `ms`. */
  end(ms: number): void {
    this.inFlight -= 1;
    this.busyMs += ms;
  }

  record(method: string, route: string, status: number): void {
    const key = `${method} ${route} ${status}`;
    const entry = this.counts.get(key);
    if (entry) entry.count += 1;
    else this.counts.set(key, { method, route, status, count: 1 });
    this.total += 1;
  }

  /** A create that made `href` arrived at `at` (wall clock, ms); the latest 200,000 are kept. */
  created(href: string, at: number): void {
    if (this.creates.length >= 200_000) this.creates.shift();
    this.creates.push({ href, at });
  }

  createLog(): { href: string; at: number }[] {
    return this.creates.slice();
  }

  report(): {
    total: number;
    requests: Array<{ method: string; route: string; status: number; count: number }>;
    inFlight: number;
    peakInFlight: number;
    busyMs: number;
  } {
    const requests = [...this.counts.values()].sort(
      (a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method) || a.status - b.status,
    );
    return {
      total: this.total,
      requests: requests.map((r) => ({ ...r })),
      inFlight: this.inFlight,
      peakInFlight: this.peakInFlight,
      busyMs: Math.round(this.busyMs),
    };
  }

  /** Forgets the counts; the requests in progress stay counted (they end later). */
  clear(): void {
    this.counts.clear();
    this.creates.length = 0;
    this.total = 0;
    this.peakInFlight = this.inFlight;
    this.busyMs = 0;
  }
}
