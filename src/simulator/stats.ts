/** Request counts by method, route template and status (`GET /__sim/stats`). */
export class RequestStats {
  private readonly counts = new Map<
    string,
    { method: string; route: string; status: number; count: number }
  >();
  private total = 0;

  record(method: string, route: string, status: number): void {
    const key = `${method} ${route} ${status}`;
    const entry = this.counts.get(key);
    if (entry) entry.count += 1;
    else this.counts.set(key, { method, route, status, count: 1 });
    this.total += 1;
  }

  report(): {
    total: number;
    requests: Array<{ method: string; route: string; status: number; count: number }>;
  } {
    const requests = [...this.counts.values()].sort(
      (a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method) || a.status - b.status,
    );
    return { total: this.total, requests: requests.map((r) => ({ ...r })) };
  }

  clear(): void {
    this.counts.clear();
    this.total = 0;
  }
}
