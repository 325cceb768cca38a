import { mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createSimulator, type Simulator } from "../../src/simulator/server.ts";
import { cli, cliProcess } from "../export/rig.ts";

const ENV = { SVC_REFRESH_TOKEN: "dev-refresh-token" };

const deployment = (spec: string, href = "/api/deployments/1") =>
  `apiVersion: cloud.svc.io/v1alpha1\nkind: Deployment\nmetadata:\n  name: production\n  annotations: {cloud.svc.io/href: "${href}"}\nspec: ${spec}\n`;

describe("svc-operator plan: exit codes and output", () => {
  let sim: Simulator;
  const plan = (stdin: string, ...flags: string[]) =>
    cli(
      ["plan", "-f", "-", "--no-cluster", "--endpoint", sim.url, "--account-id", "1", ...flags],
      ENV,
      stdin,
    );

  beforeAll(async () => {
    sim = await createSimulator();
  });

  afterAll(async () => {
    await sim?.close();
  });

  it("0 when nothing would change", async () => {
    const r = await plan(deployment("{name: Production, locked: false}"));
    expect(r.out).toMatch(/^no change +Deployment default\/production$/m);
    expect(r.code).toBe(0);
  });

  it("2 when something would change (terraform's -detailed-exitcode), with the fields and values", async () => {
    const r = await plan(deployment("{name: Production, description: new text}"), "-o", "yaml");
    expect(r.code).toBe(2);
    expect(parse(r.out).resources).toEqual([
      expect.objectContaining({
        action: "update",
        changes: [
          { field: "description", service: "Seeded deployment with servers and inputs", desired: "new text" },
        ],
      }),
    ]);
  });

  it("1 when a manifest is invalid, blocked or immutable, or the service cannot be read", async () => {
    expect((await plan(deployment("{name: Production, serverTagScope: galaxy}"))).code).toBe(1);
    expect((await plan(deployment("{name: Production}", "/api/deployments/999"))).out).toMatch(/^create /m);
    const gone = await cli(
      ["plan", "-f", "-", "--no-cluster", "--endpoint", sim.url, "--account-id", "1"],
      { SVC_REFRESH_TOKEN: "nope" },
      deployment("{}"),
    );
    expect(gone).toMatchObject({ code: 1, out: "" });
    expect(gone.err).toBe(
      `svc-operator plan: the service at ${sim.url} refused the credentials: POST /api/oauth2/ -> 401 AuthenticationError: refresh_token is invalid or OAuth is disabled`,
    );
  });

  it.each([
    [[], "--filename: is required"],
    [["-f", "-", "-o", "html"], "--output: must be table, json or yaml"],
    [["-f", "-", "--no-cluster"], "--no-cluster: needs --endpoint and --account-id"],
    [["-f", "-", "--endpoint", "https://x.example.com"], "--account-id: is required with --endpoint"],
    [["-f", "-", "--refresh-token", "x"], "Unknown option '--refresh-token'"],
  ])("bad flags %j: exit 1 (2 is changes present alone), one line naming the flag", async (args, message) => {
    const r = await cli(["plan", ...args], ENV, "");
    expect(r.code).toBe(1);
    expect(r.err).toContain(message);
    expect(r.err).not.toContain("\n");
    expect(r.out).toBe("");
  });
});

describe("svc-operator plan -f on what cannot be read (as a process)", () => {
  // Nothing is planned: reading the manifests fails before any call, so the endpoint is never reached.
  const plan = (file: string) =>
    cliProcess(
      ["plan", "-f", file, "--no-cluster", "--endpoint", "https://127.0.0.1:9", "--account-id", "1"],
      ENV,
    );
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "svc-plan-unreadable-"));
    const bomb = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (let i = 1; i < 10; i++)
      bomb.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    await writeFile(join(dir, "bomb.yaml"), `${bomb.join("\n")}\n`);
    await writeFile(
      join(dir, "broken.yaml"),
      "kind: Secret\nstringData:\n  password: hunter2\n    oops: [\n",
    );
    await writeFile(
      join(dir, "twice.yaml"),
      "apiVersion: v1\nkind: Secret\nmetadata: {name: a}\nstringData:\n  password: hunter2\n  password: hunter3\n",
    );
    await symlink(join(dir, "loop-b.yaml"), join(dir, "loop-a.yaml"));
    await symlink(join(dir, "loop-a.yaml"), join(dir, "loop-b.yaml"));
  });

  it.each([
    [
      "an alias bomb",
      "bomb.yaml",
      "document 1: its aliases expand past 100 nodes (a YAML alias bomb?): not read",
    ],
    ["a YAML syntax error", "broken.yaml", "document 1: "],
    ["a file that does not exist", "missing.yaml", "no such file or directory"],
    ["a path that cannot be read (a symbolic link loop)", "loop-a.yaml", "too many symbolic links (a loop?)"],
    ["a duplicate key", "twice.yaml", "document 1: Map keys must be unique at line 6, column 3"],
  ])("%s: exit 1, one line on stderr naming the file, no stack trace", async (_, file, message) => {
    const r = await plan(join(dir, file));
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^[^\n]+\n$/);
    expect(r.err.startsWith(`svc-operator plan: -f ${join(dir, file)}: ${message}`), r.err).toBe(true);
    expect(r.err).not.toContain("    at ");
    expect(r.err).not.toContain("hunter2");
  });
});

describe("svc-operator plan: any failure is exit 1 and one line, as a process (2 is changes present alone)", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "svc-plan-errors-"));
    await writeFile(join(dir, "web.yaml"), deployment("{name: Production}"));
  });

  it.each([
    ["a bad flag value", ["-o", "html"], {}, "--output: must be table, json or yaml"],
    ["an unknown flag", ["--refresh-token", "x"], {}, "Unknown option '--refresh-token'"],
    [
      "a kubeconfig that does not exist",
      ["--kubeconfig", "/nonexistent/kubeconfig"],
      {},
      "cannot load --kubeconfig",
    ],
    [
      "--endpoint without credentials in the environment",
      ["--no-cluster", "--endpoint", "https://127.0.0.1:9", "--account-id", "1"],
      {},
      "--endpoint: credentials come from the environment",
    ],
  ])("%s", async (_, flags, env, message) => {
    const r = await cliProcess(["plan", "-f", join(dir, "web.yaml"), ...flags], env);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^svc-operator plan: [^\n]+\n$/);
    expect(r.err).toContain(message);
    expect(r.err).not.toContain("    at ");
  });
});
