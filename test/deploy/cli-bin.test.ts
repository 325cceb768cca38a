import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

function npm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile("npm", args, { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    ),
  );
}

describe("the svc-operator command, right after npm ci (no build step)", () => {
  it("`npm exec -- svc-operator --help` runs the CLI", async () => {
    const out = await npm(["exec", "--", "svc-operator", "--help"]);
    expect(out.stderr).not.toMatch(/not found/);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("Usage: svc-operator <command> [flags]");
  });

  it("`svc-operator` inside npm scripts runs the CLI on the pinned Node", async () => {
    const out = await npm(["run", "--silent", "start", "--", "--version"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout.trim()).toMatch(/^svc-operator \d+\.\d+\.\d+ \(node v24\./);
  });
});
