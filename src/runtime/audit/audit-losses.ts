import type { AuditErrorReason, AuditMetrics } from "./audit-calls.ts";

/**
 * Changes the trail gives up for a cause that is not about one object (its queue full, a
 * shutdown): each is counted in the metric, and the trail logs the cause once for the process,
 * however many objects it hits: at 20,000 resources a warn line per object (an Error and its stack
 * each) was 10,000 lines and most of the trail's CPU.
 */
export class AuditLosses {
  private readonly metrics: AuditMetrics | undefined;
  private readonly counts = new Map<AuditErrorReason, number>();

  constructor(metrics: AuditMetrics | undefined) {
    this.metrics = metrics;
  }

  /** Counts a change of the kind given up; true for the first of its cause (the one to log). */
  lost(kind: string, reason: AuditErrorReason): boolean {
    this.metrics?.auditError(kind, reason);
    const count = (this.counts.get(reason) ?? 0) + 1;
    this.counts.set(reason, count);
    return count === 1;
  }

  /** Changes given up so far, per cause. */
  tally(): Partial<Record<AuditErrorReason, number>> {
    return Object.fromEntries(this.counts);
  }
}
