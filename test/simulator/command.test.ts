import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.ts";
import { parseFlags } from "../../src/lib/cli/index.ts";
import {
  type SimulatorCommandOptions,
  simulatorCommand,
  startFromOptions,
} from "../../src/simulator/command.ts";
import { occupyPort } from "../support/ports.ts";
import { simHook } from "../support/sim-hook.ts";
import { login } from "./harness.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: {} } };
}

const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
const dir = await mkdtemp(join(tmpdir(), "sim-seed-"));
const defaults = {
  host: "127.0.0.1",
  port: 0,
  "region-port": 0,
  "latency-ms": 0,
  "log-level": "silent" as const,
};

describe("svc-operator simulator flags", () => {
  const bad: Array<[string[], string]> = [
    [["--port", "70000"], "--port: must be between 0 and 65535"],
    [["--port", "abc"], "--port: must be a number"],
    [["--region-port=-1"], "--region-port: must be between 0 and 65535"],
    [["--latency-ms", "1.5"], "--latency-ms: must be a whole number"],
    [["--latency-ms", "9999999"], "--latency-ms: must be at most 600000"],
    [["--log-level", "loud"], "--log-level: must be one of trace, debug, info, warn, error, fatal, silent"],
    [["--host", ""], "--host: must not be empty"],
    [["--seed", ""], "--seed: must name a YAML file"],
    [["--nope"], "Unknown option '--nope'"],
  ];
  it.each(bad)("%j exits 2 naming the flag", async (argv, message) => {
    const c = capture();
    expect(await main(["simulator", ...argv], c.io)).toBe(2);
    expect(c.err.join("\n")).toContain(message);
  });

  it("--help lists every flag with its default", async () => {
    const c = capture();
    expect(await main(["simulator", "--help"], c.io)).toBe(0);
    const help = c.out.join("\n");
    for (const f of ["--host", "--port", "--region-port", "--latency-ms", "--seed", "--log-level"])
      expect(help).toContain(f);
    expect(help).toMatch(/--port <value>.*\(default 9292\)/);
  });
});

describe("--seed FILE", () => {
  const cases: Array<[string, string, string]> = [
    ["a missing file", "", "cannot read the seed file (ENOENT)"],
    ["invalid YAML", "deployments: [", "not valid YAML"],
    ["a list at the top", "- a\n- b\n", "must be a mapping of collection name to a list of records"],
    ["an unknown collection", "widgets: []\n", "unknown collection 'widgets'"],
    [
      "a record missing a field",
      "deployments:\n  - id: 1\n    description: no name\n",
      "deployments[0].name:",
    ],
    [
      "a bad enum",
      "deployments:\n  - id: 1\n    name: x\n    server_tag_scope: galaxy\n",
      "deployments[0].server_tag_scope:",
    ],
    ["an unknown field", "clouds:\n  - id: 1\n    name: c\n    colour: red\n", "clouds[0]"],
    [
      "a duplicate id",
      "users:\n  - {id: 1, email: a@x, password: p}\n  - {id: 1, email: b@x, password: p}\n",
      "users[1].id: duplicate id '1'",
    ],
    [
      "a bad timestamp",
      "deployments:\n  - {id: 1, name: x, created_at: yesterday}\n",
      'deployments[0].created_at: "yesterday" is not a timestamp',
    ],
    ["a bad role", "permissions:\n  - {user_id: 1, role_title: king}\n", "permissions[0].role_title:"],
  ];
  it.each(cases)("refuses %s with exit 2 and a message naming the field", async (_reason, text, message) => {
    const file = join(dir, `${_reason.replace(/\W+/g, "-")}.yaml`);
    if (text !== "") await writeFile(file, text);
    const c = capture();
    expect(await main(["simulator", "--port", "0", "--region-port", "0", "--seed", file], c.io)).toBe(2);
    const err = c.err.join("\n");
    expect(err).toContain(`--seed: ${file}: `);
    expect(err).toContain(message);
  });

  it("a valid seed file replaces the default seed (short records get defaults)", async () => {
    const file = join(dir, "seed.yaml");
    await writeFile(
      file,
      [
        "accounts: [{id: 1, name: Mine}]",
        "users:",
        "  - {id: 7, email: me@example.com, password: secret, settings: [premium_deployments]}",
        "permissions:",
        "  - {user_id: 7, role_title: observer}",
        "  - {user_id: 7, role_title: actor}",
        "deployments:",
        "  - {id: 40, name: Only, created_at: '2024/05/06 07:08:09 +0000'}",
        "clouds:",
        "  - {id: 3, name: Tiny, capabilities: {supports_networks: false}}",
      ].join("\n"),
    );
    const c = capture();
    const sim = await startFromOptions({ ...defaults, seed: file }, c.io);
    try {
      expect(c.out.join("\n")).toContain(`seed: ${file}`);
      const me = await login(sim.url, "me@example.com", "secret");
      const list = (await me.get("/api/deployments")).json<Array<{ name: string }>>();
      expect(list.map((d) => d.name)).toEqual(["Only"]);
      expect(
        (await me.post("/api/deployments", { form: { deployment: { name: "second" } } })).headers.get(
          "location",
        ),
      ).toBe("/api/deployments/41");
      const cloud = (await me.get("/api/clouds/3", { query: { view: "extended" } })).json<{
        capabilities: unknown[];
      }>();
      expect(cloud.capabilities).toContainEqual({ name: "supports_networks", value: "false" });
      expect(cloud.capabilities).toContainEqual({ name: "supports_route_tables", value: "true" });
      await expect(login(sim.url, "admin@example.com", "password")).rejects.toThrow(/401/);
    } finally {
      await sim.close();
    }
  });
});

describe("--region-port follows --port unless given", () => {
  it.each([
    [[], 9293],
    [["--port", "9300"], 9301],
    [["--port", "0"], 0],
    [["--port", "65535"], 0],
    [["--port", "0", "--region-port", "9400"], 9400],
    [["--region-port", "0"], 0],
  ] as const)("%j -> region port %d", (argv, region) => {
    const options = parseFlags(simulatorCommand, [...argv]) as SimulatorCommandOptions;
    expect(options["region-port"]).toBe(region);
  });
});

// The real CLI in a child process: what it prints, its request log, and a clean stop on each
// signal. Everything waits by polling the child's output with a generous timeout (a loaded
// machine can take seconds to start Node), never by sleeping a fixed time.
const SPAWN_TIMEOUT_MS = 120_000;

describe("the CLI process", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  function spawnCli(...args: string[]) {
    return spawnCliWith(process.env, ...args);
  }

  /** Both ports free (0) unless the test passes its own. */
  function spawnCliWith(env: NodeJS.ProcessEnv, ...args: string[]) {
    return spawnCliRaw(env, "--port", "0", "--region-port", "0", ...args);
  }

  function spawnCliRaw(env: NodeJS.ProcessEnv, ...args: string[]) {
    const child = spawn(process.execPath, [CLI, "simulator", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    children.push(child);
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    return { child, exited, out: () => out, err: () => err };
  }

  it.each(["SIGINT", "SIGTERM"] as const)(
    "prints its URL and credentials, logs one pino line per request, stops cleanly on %s",
    async (signal) => {
      const cli = spawnCli("--log-level", "info");
      await waitFor(() => /test hooks: /.test(cli.out()), `the banner (stderr: ${cli.err()})`);
      const url = /service API 1\.5 at (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())![1]!;
      expect(cli.out()).toMatch(/wrong-region host .*http:\/\/127\.0\.0\.1:\d+/);
      expect(cli.out()).toContain("admin@example.com / password");
      expect(cli.out()).toContain("user2@example.com / password");
      expect(cli.out()).toContain("dev-refresh-token");

      const admin = await login(url, "admin@example.com", "password");
      expect((await admin.get("/api/deployments/1")).status).toBe(200);
      expect((await admin.get("/api/clouds/1/volumes.xml")).status).toBe(200);
      const requestLines = () =>
        cli
          .out()
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.msg === "request");
      await waitFor(() => requestLines().length >= 3, "three request log lines");
      expect(requestLines().map((l) => [l.method, l.path, l.status])).toEqual([
        ["POST", "/api/session", 204],
        ["GET", "/api/deployments/1", 200],
        ["GET", "/api/clouds/1/volumes.xml", 200],
      ]);
      expect(cli.out()).not.toContain("_session_id=");

      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
      expect(cli.out()).toContain(`${signal}, stopping`);
      expect(cli.err()).toBe("");
      await expect(simHook(url, "stats")).rejects.toThrow();
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    "prints the test-hook token it generated when SVC_SIMULATOR_TOKEN is unset; the hooks need it",
    async () => {
      const { SVC_SIMULATOR_TOKEN: _, ...env } = process.env;
      const cli = spawnCliWith(env, "--log-level", "silent");
      await waitFor(() => /test hook token/.test(cli.out()), `the banner (stderr: ${cli.err()})`);
      const url = /service API 1\.5 at (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())![1]!;
      const token = /test hook token \(header X-Simulator-Token\): (\S+)/.exec(cli.out())![1]!;
      expect(token).not.toBe(process.env.SVC_SIMULATOR_TOKEN);
      expect((await simHook({ url, hookToken: token }, "stats")).status).toBe(200);
      expect((await simHook(url, "stats")).status).toBe(401);
      cli.child.kill("SIGTERM");
      expect(await cli.exited).toBe(0);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    "takes the token from SVC_SIMULATOR_TOKEN without echoing it, and refuses a short one with exit 2",
    async () => {
      const cli = spawnCli("--log-level", "silent");
      await waitFor(() => /test hook token/.test(cli.out()), `the banner (stderr: ${cli.err()})`);
      expect(cli.out()).toContain("test hook token (header X-Simulator-Token): from SVC_SIMULATOR_TOKEN");
      expect(cli.out()).not.toContain(process.env.SVC_SIMULATOR_TOKEN!);
      cli.child.kill("SIGTERM");
      expect(await cli.exited).toBe(0);

      const short = spawnCliWith({ ...process.env, SVC_SIMULATOR_TOKEN: "short" });
      expect(await short.exited).toBe(2);
      expect(short.err()).toContain("SVC_SIMULATOR_TOKEN: must be 16 to 256 visible ASCII characters");
    },
    SPAWN_TIMEOUT_MS,
  );

  it.each([
    ["--port", (p: number) => ["--port", String(p), "--region-port", "0"]],
    ["--region-port", (p: number) => ["--port", "0", "--region-port", String(p)]],
  ] as const)(
    "a port in use on %s exits 2 naming the flag and what to do, no stack trace",
    async (flag, argv) => {
      const blocker = await occupyPort();
      try {
        const cli = spawnCliRaw(process.env, ...argv(blocker.port));
        expect(await cli.exited).toBe(2);
        expect(cli.err()).toContain(
          `svc-operator simulator: ${flag} ${blocker.port}: address 127.0.0.1:${blocker.port} is in use (EADDRINUSE); pick another port or 0 for a free one`,
        );
        expect(cli.err()).not.toMatch(/\n\s+at /);
      } finally {
        await blocker.close();
      }
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    "both ports in use: one run names both, exit 2",
    async () => {
      const [a, b] = [await occupyPort(), await occupyPort()];
      try {
        const cli = spawnCliRaw(process.env, "--port", String(a.port), "--region-port", String(b.port));
        expect(await cli.exited).toBe(2);
        for (const [flag, port] of [
          ["--port", a.port],
          ["--region-port", b.port],
        ] as const)
          expect(cli.err()).toContain(
            `  ${flag} ${port}: address 127.0.0.1:${port} is in use (EADDRINUSE); pick another port or 0 for a free one`,
          );
        expect(cli.err()).not.toMatch(/\n\s+at /);
      } finally {
        await a.close();
        await b.close();
      }
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    "a bad seed file exits 2 with the error on stderr",
    async () => {
      const file = join(dir, "bad-seed.yaml");
      await writeFile(file, "widgets: []\n");
      const cli = spawnCli("--seed", file);
      expect(await cli.exited).toBe(2);
      expect(cli.err()).toContain(`--seed: ${file}: `);
      expect(cli.err()).toContain("unknown collection 'widgets'");
    },
    SPAWN_TIMEOUT_MS,
  );
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
