import type { Logger } from "pino";
import type { KubeWriter, ObjectStore } from "../client/index.ts";
import type { AuditCalls, AuditMetrics } from "./audit-calls.ts";

/** What an AuditTrail is built with: where it writes, and the bounds on its calls and queue. */
export interface AuditTrailOptions {
  identity: string;
  store: ObjectStore;
  kube: KubeWriter;
  log: Logger;
  metrics?: AuditMetrics;
  calls?: AuditCalls;
  /** Entry hrefs remembered per service object (more are found again in status). */
  maxEntries?: number;
  /**
   * Bytes the tasks waiting for their calls may hold (default 64 MiB: about 130,000 creates, some
   * 500 bytes each, more than twice the 50,000 resources an operator is made for). Beyond it a change is
   * counted as lost (`queueFull`); a deletion's, which its reconcile waits for, is always taken
   * (there are no more of those than reconciles at once).
   */
  maxQueuedBytes?: number;
  /**
   * Audit calls in flight at once per Account while reconciles are running (default 2): the rest
   * of the Account's connections (`--api-connections`, 16 by default) stay theirs, so a burst of
   * changes converges first and its trail follows.
   */
  concurrency?: number;
  /** The same when no reconcile is queued or running (default 8): the trail catches up. */
  idleConcurrency?: number;
  /** Whether reconciles are queued or running (default: never). */
  busy?: () => boolean;
  /** The longest a deletion waits for its object's entry to be made sure of (default 10 s). */
  beforeDeleteWaitMs?: number;
  /** Objects remembered as logged (their later failures are only counted). */
  maxLogged?: number;
  /** Runs a reconcile's wait for its calls with its slot lent to other keys (Workers.lend). */
  lend?: <T>(wait: Promise<T>) => Promise<T>;
}

/** The default of AuditTrailOptions.maxQueuedBytes. */
export const MAX_QUEUED_BYTES = 64 * 2 ** 20;
