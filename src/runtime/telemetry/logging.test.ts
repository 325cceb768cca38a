import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { lazyChild, operatorLogger } from "./logging.ts";

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, stream };
}

describe("operatorLogger", () => {
  it("writes JSON and redacts secrets at any depth", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = operatorLogger("info", sink).child({ kind: "Account", namespace: "ns", name: "a" });
    log.info(
      { auth: { refreshToken: "dev-refresh-token", password: "hunter2" }, secret: { data: { x: "eA==" } } },
      "hello",
    );
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ kind: "Account", namespace: "ns", name: "a", msg: "hello" });
    expect(lines[0]).not.toContain("dev-refresh-token");
    expect(lines[0]).not.toContain("hunter2");
    expect(lines[0]).not.toContain("eA==");
  });

  it.each([
    {
      reason: "an expected failure (a stable code): message and fields, no stack",
      code: "SVC_OUTCOME_UNKNOWN",
      stack: false,
    },
    { reason: "an apiserver answer (a numeric code): no stack", code: 403, stack: false },
    { reason: "a bug (no code): the stack stays", code: undefined, stack: true },
  ])("$reason", ({ code, stack }) => {
    const out = sink();
    const error = Object.assign(new Error("it failed"), code === undefined ? {} : { code });
    operatorLogger("info", out.stream).warn({ err: error }, "failed");
    const line = JSON.parse(out.lines[0]!) as { err: { message: string; stack?: string } };
    expect(line.err.message).toBe("it failed");
    expect(line.err.stack !== undefined).toBe(stack);
  });
});

describe("lazyChild", () => {
  it("makes the child on the first call at an enabled level, with its bindings and the redaction", () => {
    const { lines, stream } = sink();
    const parent = operatorLogger("warn", stream);
    let made = 0;
    const log = lazyChild(parent, () => {
      made++;
      return { kind: "Volume", name: "v" };
    });
    log.info("not written");
    log.debug({ a: 1 }, "not written");
    expect(made).toBe(0);
    expect(lines).toHaveLength(0);
    log.warn({ auth: { password: "hunter2" } }, "written");
    log.error("again");
    expect(made).toBe(1);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: "Volume", name: "v", msg: "written", level: 40 });
    expect(lines[0]).not.toContain("hunter2");
    expect(log.bindings()).toMatchObject({ kind: "Volume", name: "v" });
  });

  it("follows the parent's level and passes child() and level changes through", () => {
    const { lines, stream } = sink();
    const parent = operatorLogger("info", stream);
    const log = lazyChild(parent, () => ({ kind: "Route" }));
    expect(log.isLevelEnabled("info")).toBe(true);
    log.child({ step: "observe" }).info("inner");
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: "Route", step: "observe", msg: "inner" });
    log.level = "error";
    log.warn("dropped");
    expect(lines).toHaveLength(1);
  });
});
