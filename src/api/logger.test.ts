import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { apiLogger } from "./logger.ts";

describe("apiLogger", () => {
  it("redacts credentials at every depth, even when the parent logger does not", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = apiLogger(pino({ level: "debug" }, sink));
    log.info({
      password: "p1",
      refreshToken: "r1",
      headers: { authorization: "Bearer a1", cookie: "_session_id=c1", "set-cookie": ["_session_id=c2"] },
      request: { headers: { authorization: "Bearer a2" }, access_token: "a3", refresh_token: "r2" },
      auth: { password: "p2", token: "t1" },
      options: { auth: { password: "p3", refreshToken: "r3" } },
      keep: "visible",
    });
    const output = lines.join("");
    for (const secret of ["p1", "p2", "p3", "r1", "r2", "r3", "a1", "a2", "a3", "c1", "c2", "t1"]) {
      expect(output).not.toContain(`"${secret}"`);
      expect(output).not.toContain(secret === "a1" || secret === "a2" ? `Bearer ${secret}` : `=${secret}`);
    }
    expect(output).toContain('"keep":"visible"');
    expect(output).toContain('"component":"svc-api"');
  });
});
