import { describe, expect, it } from "vitest";
import * as z from "zod";
import { main } from "./cli.ts";
import { defineCommand, flag } from "./lib/cli/index.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: {} } };
}

const seen: unknown[] = [];
const echo = defineCommand({
  name: "echo",
  summary: "prints its options",
  flags: {
    port: { type: "string", short: "p", description: "a port", default: "9292" },
    verbose: { type: "boolean", description: "talk more" },
  },
  schema: z.object({ port: flag.port(9292), verbose: z.boolean().default(false) }).strict(),
  async run(options) {
    seen.push(options);
    return 0;
  },
});

const get = defineCommand({
  name: "get",
  summary: "takes positional arguments and short flags, and exits 1 on misuse as kubectl does",
  args: "KIND/NAME",
  usageExitCode: 1,
  flags: { namespace: { type: "string", short: "n", description: "a namespace" } },
  schema: z.object({ args: z.array(z.string()), namespace: z.string().optional() }).strict(),
  async run(options) {
    seen.push(options);
    return 0;
  },
});

describe("cli", () => {
  it("positional arguments reach the schema as args, short flags as their long names", async () => {
    const c = capture();
    expect(await main(["get", "route/a", "-n", "team"], c.io, [get])).toBe(0);
    expect(seen.at(-1)).toEqual({ args: ["route/a"], namespace: "team" });
    expect(await main(["get", "--help"], c.io, [get])).toBe(0);
    expect(c.out.join("\n")).toContain("Usage: svc-operator get KIND/NAME [flags]");
    expect(c.out.join("\n")).toMatch(/-n, --namespace <value>\s+a namespace/);
  });

  it("a positional argument to a command that takes none is a usage error; the command's exit code", async () => {
    const c = capture();
    expect(await main(["echo", "extra"], c.io, [echo])).toBe(2);
    expect(c.err.join("\n")).toContain("extra");
    expect(await main(["get", "--nope"], c.io, [get])).toBe(1);
  });

  it("says a usage error in one line: the flag, the rule, and where the flags are listed", async () => {
    const c = capture();
    expect(await main(["echo", "--port", "70000"], c.io, [echo])).toBe(2);
    expect(c.err).toEqual([
      "svc-operator echo: --port: must be between 0 and 65535 (run 'svc-operator echo --help' for usage)",
    ]);
  });

  it("validates flags into typed options with defaults", async () => {
    const c = capture();
    expect(await main(["echo", "--port", "1234"], c.io, [echo])).toBe(0);
    expect(seen.at(-1)).toEqual({ port: 1234, verbose: false });
  });

  it("takes a flag's one-letter alias, and help shows both", async () => {
    const c = capture();
    expect(await main(["echo", "-p", "4321"], c.io, [echo])).toBe(0);
    expect(seen.at(-1)).toEqual({ port: 4321, verbose: false });
    expect(await main(["echo", "--help"], c.io, [echo])).toBe(0);
    expect(c.out.join("\n")).toMatch(/-p, --port <value>\s+a port/);
  });

  it("names the flag and the rule on a bad value, exit 2", async () => {
    const c = capture();
    expect(await main(["echo", "--port", "70000"], c.io, [echo])).toBe(2);
    expect(c.err.join("\n")).toContain("--port: must be between 0 and 65535");
  });

  it("rejects an unknown flag with exit 2", async () => {
    const c = capture();
    expect(await main(["echo", "--nope"], c.io, [echo])).toBe(2);
    expect(c.err.join("\n")).toMatch(/Unknown option '--nope'/);
  });

  it("rejects an unknown command with exit 2 and lists the commands", async () => {
    const c = capture();
    expect(await main(["frobnicate"], c.io, [echo])).toBe(2);
    expect(c.err.join("\n")).toContain("unknown command 'frobnicate'. Commands: echo");
  });

  it("prints help for a command, listing flags and defaults", async () => {
    const c = capture();
    expect(await main(["echo", "--help"], c.io, [echo])).toBe(0);
    const help = c.out.join("\n");
    expect(help).toContain("Usage: svc-operator echo [flags]");
    expect(help).toMatch(/--port <value>\s+a port \(default 9292\)/);
    expect(help).toMatch(/--verbose\s+talk more/);
  });

  it("prints the command list for --help", async () => {
    const c = capture();
    expect(await main(["--help"], c.io, [echo])).toBe(0);
    expect(c.out.join("\n")).toMatch(/echo\s+prints its options/);
  });
});
