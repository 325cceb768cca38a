import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { operatorLogger } from "./logging.ts";

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
});
