import { expect, it } from "vitest";
import { queuedTaskBytes } from "../../bench/lib/audit-queue-bytes.ts";

// A converge of 50,000 creates queues nearly all of its audit tasks while its reconciles run: what
// each holds is a part of the operator's peak (issue #29: at most 256 MiB RSS at 50,000).

it("a queued create holds its text and at most 260 bytes besides, and the queue's bound counts no less than it holds", () => {
  const { measured, texts, accounted } = queuedTaskBytes(20_000);
  expect(measured - texts).toBeLessThanOrEqual(260);
  // Honest both ways: maxQueuedBytes bounds what the queue holds, and means about what it says.
  expect(accounted).toBeGreaterThanOrEqual(measured);
  expect(accounted - measured).toBeLessThanOrEqual(100);
});
