import { describe, expect, it } from "vitest";
import { currentCallPriority, PriorityGate, withCallPriority } from "./call-priority.ts";

/** A call that ends when the test says so, recording when it started. */
function held(started: string[], name: string) {
  let end!: () => void;
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    run: () => {
      started.push(name);
      return done;
    },
    end,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("PriorityGate", () => {
  it("never has more than its size of calls at work", async () => {
    const gate = new PriorityGate(2);
    let atWork = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        gate.run(async () => {
          most = Math.max(most, ++atWork);
          await tick();
          atWork--;
        }),
      ),
    );
    expect(most).toBe(2);
  });

  it("gives a freed place to the waiting call of the highest priority, in arrival order within one", async () => {
    const gate = new PriorityGate(1);
    const started: string[] = [];
    const first = held(started, "first");
    const calls = [gate.run(first.run)];
    const rest = ["low-1", "high-1", "low-2", "high-2"].map((name) => held(started, name));
    for (const call of rest) calls.push(gate.run(call.run, call === rest[1] || call === rest[3] ? 1 : 0));
    for (const call of [first, ...rest]) {
      call.end();
      await tick();
    }
    await Promise.all(calls);
    expect(started).toEqual(["first", "high-1", "high-2", "low-1", "low-2"]);
  });

  it("frees the place of a call that fails", async () => {
    const gate = new PriorityGate(1);
    await expect(gate.run(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(gate.run(() => Promise.resolve("next"))).resolves.toBe("next");
  });

  it("takes the priority of the work the call is made in", async () => {
    expect(currentCallPriority()).toBe(0);
    const seen = await withCallPriority(1, async () => {
      await tick();
      return currentCallPriority();
    });
    expect(seen).toBe(1);
    expect(currentCallPriority()).toBe(0);
  });
});
