import type { Logger } from "pino";
import { type Clock, systemClock } from "../../lib/index.ts";

/** One failure of one call, reported to a ProblemLog. */
export interface Trouble {
  /**
   * What is wrong, the same for every call it affects (`apiserver unreachable`, `forbidden list`):
   * one line per cause, however many calls fail of it.
   */
  cause: string;
  /** What failed, as a person reads it (`list accounts.cloud.svc.io`); it succeeding again clears it. */
  subject: string;
  /** The line: what failed, what the other side said, what to do. */
  message: string;
  /** Structured fields for the line (verb, resource, status, reason); never a secret, never an exception. */
  fields?: Record<string, unknown>;
}

interface Cause {
  subjects: Map<string, Trouble>;
  since: number;
  total: number;
  /** Failures since the last line. */
  unreported: number;
  loggedAt?: number;
  gather?: unknown;
  /** Every subject it affected (what the resolved line names), up to EVER. */
  ever: Set<string>;
}

export interface ProblemLogOptions {
  log: Logger;
  clock?: Clock;
  /** At most one line per cause this often while it lasts (default a minute). */
  intervalMs?: number;
  /**
   * How long the first line waits for the other calls the same cause breaks (default 1 s): an
   * apiserver that is down fails every informer at once, and that is one line naming them all.
   * A cause that clears within it is never logged at all (a dropped watch that reconnects).
   */
  gatherMs?: number;
  /** Causes tracked at once; past it a failure is logged at debug only (a bound on memory). */
  maxCauses?: number;
}

/** Subjects named in a line; the rest are counted. */
const NAMED = 5;
/** Subjects remembered per cause for its resolved line. */
const EVER = 1000;

const names = (list: string[]) =>
  `${list.slice(0, NAMED).join(", ")}${list.length > NAMED ? ` and ${list.length - NAMED} more` : ""}`;

/**
 * Logs a persisting problem once when it starts, then at most once an interval while it lasts (with
 * the number of failures since), and once when it clears, instead of once per attempt: retries with
 * backoff of a cause nothing in the operator can fix (RBAC, a missing CRD, an unreachable host)
 * must not bury the one line that says what to do.
 */
export class ProblemLog {
  private readonly causes = new Map<string, Cause>();
  /** Subject -> the causes it is failing of (a subject that works again clears them). */
  private readonly bySubject = new Map<string, Set<string>>();
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly gatherMs: number;
  private readonly maxCauses: number;

  constructor(options: ProblemLogOptions) {
    this.log = options.log;
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 60_000;
    this.gatherMs = options.gatherMs ?? 1_000;
    this.maxCauses = options.maxCauses ?? 256;
  }

  /** Causes failing now. */
  get open(): number {
    return this.causes.size;
  }

  failed(trouble: Trouble): void {
    let cause = this.causes.get(trouble.cause);
    if (!cause) {
      if (this.causes.size >= this.maxCauses) {
        this.log.debug({ ...trouble.fields }, trouble.message);
        return;
      }
      cause = { subjects: new Map(), since: this.clock.now(), total: 0, unreported: 0, ever: new Set() };
      this.causes.set(trouble.cause, cause);
    }
    // The latest words for the subject: a message that changes (a new port, another user) shows.
    cause.subjects.delete(trouble.subject);
    if (cause.ever.size < EVER) cause.ever.add(trouble.subject);
    cause.subjects.set(trouble.subject, trouble);
    let causes = this.bySubject.get(trouble.subject);
    if (!causes) {
      causes = new Set();
      this.bySubject.set(trouble.subject, causes);
    }
    causes.add(trouble.cause);
    cause.total++;
    cause.unreported++;
    const c = cause;
    if (c.loggedAt === undefined) {
      if (c.gather !== undefined) return;
      if (this.gatherMs <= 0) this.started(c);
      else
        c.gather = this.clock.setTimeout(() => {
          c.gather = undefined;
          if (this.causes.get(trouble.cause) === c) this.started(c);
        }, this.gatherMs);
      return;
    }
    if (this.clock.now() - c.loggedAt >= this.intervalMs) this.line(c, "warn", "still failing: ");
  }

  /** The subject worked: every cause it was failing of that no other subject still fails of clears. */
  succeeded(subject: string): void {
    this.drop(subject, true);
  }

  /** The subject is gone (a deleted Account): its causes clear without a line of their own. */
  forget(subject: string): void {
    this.drop(subject, false);
  }

  /** Stops the gather timers (the operator is stopping). */
  close(): void {
    for (const c of this.causes.values()) if (c.gather !== undefined) this.clock.clearTimeout(c.gather);
    this.causes.clear();
    this.bySubject.clear();
  }

  private drop(subject: string, worked: boolean): void {
    const causes = this.bySubject.get(subject);
    if (!causes) return;
    this.bySubject.delete(subject);
    for (const id of causes) {
      const c = this.causes.get(id);
      if (!c) continue;
      const last = c.subjects.get(subject);
      c.subjects.delete(subject);
      if (c.subjects.size > 0) continue;
      this.causes.delete(id);
      if (c.gather !== undefined) this.clock.clearTimeout(c.gather);
      if (c.loggedAt === undefined || !worked || !last) continue;
      const forMs = this.clock.now() - c.since;
      const what = names([...c.ever]);
      this.log.info(
        { ...last.fields, problem: "resolved", failures: c.total, forMs },
        `resolved: ${what} ${c.ever.size === 1 ? "works" : "work"} again (after ${c.total} failed attempt${c.total === 1 ? "" : "s"} over ${duration(forMs)})`,
      );
    }
  }

  private started(c: Cause): void {
    this.line(c, "warn", "");
  }

  private line(c: Cause, level: "warn", prefix: string): void {
    const troubles = [...c.subjects.values()];
    const latest = troubles.at(-1)!;
    const others = troubles.filter((t) => t !== latest).map((t) => t.subject);
    const also = others.length === 0 ? "" : `; also failing: ${names(others)}`;
    const now = this.clock.now();
    const fields: Record<string, unknown> = {
      ...latest.fields,
      problem: c.loggedAt === undefined ? "started" : "persists",
      failures: c.unreported,
    };
    if (c.loggedAt !== undefined) fields.forMs = now - c.since;
    const since =
      c.loggedAt === undefined
        ? ""
        : ` (${c.unreported} failed attempts in the last ${duration(now - c.loggedAt)})`;
    this.log[level](fields, `${prefix}${latest.message}${also}${since}`);
    c.loggedAt = now;
    c.unreported = 0;
  }
}

/** `45s`, `3m5s`, `1h2m`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60 ? `${s % 60}s` : ""}`;
  return `${Math.floor(m / 60)}h${m % 60 ? `${m % 60}m` : ""}`;
}
