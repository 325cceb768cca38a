import type { Clock } from "../../lib/index.ts";
import { counted, type MapFootprint } from "../../lib/index.ts";

/**
 * How long a replaced client stays open. A reconcile takes its Account's client once and makes
 * its calls with it; one that started before the Account's spec or Secret changed must finish
 * with the client it has. A service call ends within about 90 s (a 60 s attempt after retries
 * bounded to 30 s), and a reconcile makes a few: 5 minutes covers them with room to spare.
 */
export const RETIRED_CLIENT_GRACE_MS = 5 * 60_000;

/**
 * Service clients replaced by a new one, each closed a grace period after it was retired: closing
 * one at once fails the calls that reconciles still holding it make next (undici: "client is
 * destroyed"), an outcome the operator cannot know. The close is the kind's graceful one, which
 * lets the calls in flight end; `close` (operator shutdown, after the reconciles ended) closes
 * every client still retired without waiting.
 */
export class RetiredClients {
  /** Retired clients and the timers that close them. */
  private readonly waiting = new Map<unknown, unknown>();
  /** Closes started by a timer and not yet ended: shutdown waits for them too. */
  private readonly closing = new Set<Promise<void>>();
  private readonly closeClient: (client: unknown) => Promise<void>;
  private readonly clock: Clock;
  private readonly graceMs: number;

  constructor(
    closeClient: (client: unknown) => Promise<void>,
    clock: Clock,
    graceMs = RETIRED_CLIENT_GRACE_MS,
  ) {
    this.closeClient = closeClient;
    this.clock = clock;
    this.graceMs = graceMs;
  }

  retire(client: unknown): void {
    if (this.waiting.has(client)) return;
    const timer = this.clock.setTimeout(() => {
      this.waiting.delete(client);
      this.track(client);
    }, this.graceMs);
    this.waiting.set(client, timer);
  }

  /** Closes every retired client now, and waits for the closes already started. */
  async close(): Promise<void> {
    for (const [client, timer] of this.waiting) {
      this.clock.clearTimeout(timer);
      this.track(client);
    }
    this.waiting.clear();
    await Promise.all(this.closing);
  }

  /** Retired clients not closed yet (bounded by the grace period, not by Accounts). */
  footprint(): MapFootprint {
    return counted(this.waiting.size + this.closing.size);
  }

  private track(client: unknown): void {
    const closed = this.closeClient(client)
      .catch(() => {})
      .finally(() => this.closing.delete(closed));
    this.closing.add(closed);
  }
}
