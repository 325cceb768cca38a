import { describe, expect, it } from "vitest";
import { aheadOfOthers, ConnectionGate } from "./connection-gate.ts";

/** A send that stays on the wire until `finish(name)`; `started` lists the sends in order. */
function wire() {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const send = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      ends.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    ends.get(name)!();
    await new Promise((r) => setImmediate(r));
  };
  return { started, send, finish };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("ConnectionGate", () => {
  it("sends at most `size` calls at once, the others first come first served", async () => {
    const gate = new ConnectionGate(2);
    const { started, send, finish } = wire();
    const calls = ["a", "b", "c", "d"].map((n) => gate.run(send(n)));
    await settle();
    expect(started).toEqual(["a", "b"]);
    await finish("b");
    expect(started).toEqual(["a", "b", "c"]);
    await finish("a");
    await finish("c");
    await finish("d");
    expect(await Promise.all(calls)).toEqual(["a", "b", "c", "d"]);
  });

  it("gives a free connection to a call made ahead of others before calls that came earlier", async () => {
    const gate = new ConnectionGate(1);
    const { started, send, finish } = wire();
    void gate.run(send("busy"));
    void gate.run(send("create-1"));
    void gate.run(send("create-2"));
    void aheadOfOthers(() => gate.run(send("index-read")));
    await settle();
    await finish("busy");
    expect(started).toEqual(["busy", "index-read"]);
    await finish("index-read");
    await finish("create-1");
    expect(started).toEqual(["busy", "index-read", "create-1", "create-2"]);
  });

  it("a caller that aborts while waiting leaves the line without taking a connection", async () => {
    const gate = new ConnectionGate(1);
    const { started, send, finish } = wire();
    void gate.run(send("busy"));
    const abort = new AbortController();
    const given = gate.run(send("given-up"), abort.signal);
    void gate.run(send("next"));
    abort.abort(new Error("caller gave up"));
    await expect(given).rejects.toThrow("caller gave up");
    await finish("busy");
    expect(started).toEqual(["busy", "next"]);
  });

  it("a send that fails frees its connection", async () => {
    const gate = new ConnectionGate(1);
    await expect(gate.run(() => Promise.reject(new Error("reset")))).rejects.toThrow("reset");
    expect(await gate.run(() => Promise.resolve("after"))).toBe("after");
  });
});
