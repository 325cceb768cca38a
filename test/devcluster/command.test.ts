import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { occupyPort } from "../support/ports.ts";

const CLI = join(import.meta.dirname, "..", "..", "src", "cli.ts");

describe("svc-operator devcluster (as a child process)", () => {
  it("a port in use exits 2 naming --port and what to do, no stack trace", { timeout: 60_000 }, async () => {
    const blocker = await occupyPort();
    try {
      const child = spawn(process.execPath, [CLI, "devcluster", "--port", String(blocker.port)], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += String(d);
      });
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(2);
      expect(stderr).toContain(
        `svc-operator devcluster: --port ${blocker.port}: address 127.0.0.1:${blocker.port} is in use (EADDRINUSE); pick another port or 0 for a free one`,
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await blocker.close();
    }
  });
});
