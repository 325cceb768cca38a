import { lstat, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { main } from "../../src/cli.ts";
import { HEADER } from "../../src/export/write.ts";
import { createSimulator, type Simulator } from "../../src/simulator/server.ts";
import { type Stack, serviceApi, startStack } from "../operator/harness.ts";
import { brownfield, type Made } from "./brownfield.ts";
import { accountNamespace, cli, cliProcess, kubeconfigFile, recordingResources } from "./rig.ts";

const ENV = { SVC_REFRESH_TOKEN: "dev-refresh-token" };
const tmp = () => mkdtemp(join(tmpdir(), "svc-export-"));

describe("svc-operator export", () => {
  let stack: Stack;
  let made: Made;
  let kubeconfig: string;
  const base = () => ["export", "--endpoint", stack.sim.url, "--account-id", "1"];

  beforeAll(async () => {
    stack = await startStack({ simulator: { resources: recordingResources([], ["/api/permissions"]) } });
    made = await brownfield(serviceApi(stack));
    await accountNamespace(stack, "team-a");
    kubeconfig = await kubeconfigFile(stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("skips a kind whose collection the service refuses (403), names it, and exits 3 (partial)", async () => {
    const r = await cli([...base(), "--out", "-"], ENV);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /^warning: skipped Permission: the service refused to list permissions: GET \/api\/permissions -> 403/m,
    );
    expect(r.err).toMatch(/^exported \d+ objects of \d+ kinds \(\d+ API calls\); skipped Permission$/m);
    expect(r.out).not.toContain("kind: Permission");
  });

  it("reads the Account and its Secret from a cluster (--kubeconfig, --account)", async () => {
    const r = await cli([
      "export",
      "--kubeconfig",
      kubeconfig,
      "--account",
      "team-a/default",
      "--out",
      "-",
      "--kinds",
      "deployment",
    ]);
    expect(r.code, r.err).toBe(0);
    const docs = parseAllDocuments(r.out).map((d) => d.toJS());
    expect(docs[0]).toMatchObject({
      kind: "Account",
      metadata: { name: "default", namespace: "team-a" },
      spec: {
        endpoint: stack.sim.url,
        oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
      },
    });
    expect(docs.slice(1).map((d) => d.kind)).toEqual([
      "Deployment",
      "Deployment",
      "Deployment",
      "Deployment",
    ]);
    expect(r.out).not.toContain("dev-refresh-token");
  });

  it("--filter keeps the object it names and what belongs to it; references leave to objects it drops become hrefs", async () => {
    const r = await cli(
      [
        ...base(),
        "--out",
        "-",
        "--filter",
        "network=main",
        "--kinds",
        "network,routetable,subnet,networkgateway,route,deployment",
      ],
      ENV,
    );
    expect(r.code, r.err).toBe(0);
    const docs = parseAllDocuments(r.out).map((d) => d.toJS());
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
      "Account/default",
      "Network/main",
      "RouteTable/default",
      "RouteTable/private",
      "Subnet/main-a",
      "Subnet/main-b",
      "Subnet/main-c",
      "NetworkGateway/main-igw",
      "Route/route-1",
      "Route/route-2",
      "Route/route-3",
      "Route/route-4",
      "Route/route-5",
    ]);
    // The deployment the network belongs to is not kept: the network names it by href. Its
    // default route table is kept (the table belongs to the network), and named.
    expect(docs[1].spec).toMatchObject({
      deploymentHref: made.web,
      defaultRouteTableRef: { name: "default" },
    });
    expect(docs[1].spec.deploymentRef).toBeUndefined();
  });

  it("--layout object: a file per object, a kustomization listing them; a later export removes what it wrote and is gone, nothing else", async () => {
    const dir = await tmp();
    expect(
      (await cli([...base(), "--out", dir, "--kinds", "network,volume", "--layout", "object"], ENV)).code,
    ).toBe(0);
    const kustomization = parse(await readFile(join(dir, "kustomization.yaml"), "utf8"));
    expect(kustomization.resources).toEqual([
      "account.yaml",
      "networks/main.yaml",
      "networks/main-2.yaml",
      "volumes/app-1-data.yaml",
      "volumes/data.yaml",
    ]);
    await writeFile(join(dir, "mine.yaml"), "# my own file\n");
    expect((await cli([...base(), "--out", dir, "--kinds", "network"], ENV)).code).toBe(0);
    expect((await readdir(dir, { recursive: true })).sort()).toEqual(
      [
        "account-secret.template.yaml",
        "account.yaml",
        "kustomization.yaml",
        "mine.yaml",
        "networks",
        "networks.yaml",
        "volumes",
      ].sort(),
    );
  });

  it("--out DIR holding a file export would write but did not: refused naming it and --force, nothing written; --force overwrites it", async () => {
    const dir = await tmp();
    await writeFile(join(dir, "networks.yaml"), "# my own networks\n");
    const args = [...base(), "--out", dir, "--kinds", "network"];
    const refused = await cliProcess(args, ENV);
    expect(refused).toMatchObject({ code: 1, out: "" });
    expect(refused.err).toBe(
      `svc-operator export: --out ${dir}: networks.yaml was not written by export (its first line is not "${HEADER}"): move it away, or give --force to overwrite it; nothing was written\n`,
    );
    expect(await readdir(dir)).toEqual(["networks.yaml"]);
    expect(await readFile(join(dir, "networks.yaml"), "utf8")).toBe("# my own networks\n");
    const forced = await cli([...args, "--force"], ENV);
    expect(forced.code, forced.err).toBe(0);
    expect(await readFile(join(dir, "networks.yaml"), "utf8")).toMatch(
      /^# Generated by svc-operator export\./,
    );
  });

  it("--out DIR whose kustomization.yaml is a symbolic link out of it: refused, with --force too; the file outside is unchanged", async () => {
    const dir = await tmp();
    const outside = join(await tmp(), "elsewhere.yaml");
    await writeFile(outside, "# someone else's file\n");
    await symlink(outside, join(dir, "kustomization.yaml"));
    const message = `svc-operator export: --out ${dir}: kustomization.yaml is a symbolic link, which export does not follow: remove it, or choose another --out; nothing was written`;
    const args = [...base(), "--out", dir, "--kinds", "network"];
    expect(await cliProcess(args, ENV)).toEqual({ code: 1, out: "", err: `${message}\n` });
    expect(await cli([...args, "--force"], ENV)).toEqual({ code: 1, out: "", err: message });
    expect(await readFile(outside, "utf8")).toBe("# someone else's file\n");
    expect(await readdir(dir)).toEqual(["kustomization.yaml"]);
    expect((await lstat(join(dir, "kustomization.yaml"))).isSymbolicLink()).toBe(true);
  });

  it("draws a progress line on a terminal, and only the summary line otherwise", async () => {
    const raw: string[] = [];
    const err: string[] = [];
    const code = await main([...base(), "--out", "-", "--kinds", "deployment,network"], {
      out: () => {},
      err: (l) => err.push(l),
      errRaw: (t) => raw.push(t),
      tty: { out: false, err: true },
      env: ENV,
    });
    expect(code).toBe(0);
    expect(raw.join("")).toMatch(/^(\rexported \d\/6 objects)+\rexported 6\/6 objects\n$/);
    expect(err).toEqual([expect.stringMatching(/^exported 6 objects of 2 kinds \(\d+ API calls\)$/)]);
    const quiet = await cli([...base(), "--out", "-", "--kinds", "deployment"], ENV);
    expect(quiet.err.split("\n")).toHaveLength(1);
  });

  it.each([
    [
      ["--out", "-"],
      "--account: is required (NAMESPACE/NAME of an Account in the cluster), or give --endpoint and --account-id",
    ],
    [["--account", "nope", "--out", "-"], "--account: must be NAMESPACE/NAME, e.g. team-a/default"],
    [
      ["--endpoint", "http://example.com", "--account-id", "1", "--out", "-"],
      "--endpoint: must be an https URL",
    ],
    [["--endpoint", "https://x.example.com", "--out", "-"], "--account-id: is required with --endpoint"],
    [["--account", "a/b", "--layout", "tree", "--out", "-"], "--layout: must be kind or object"],
    [["--account", "a/b"], "--out: is required: a directory, or - for one YAML stream on stdout"],
    [["--account", "a/b", "--out", "-", "--kinds", "deployment,gizmo"], '--kinds: no kind "gizmo"'],
    [
      ["--account", "a/b", "--out", "-", "--filter", "web"],
      "--filter web: must be KIND=NAME, e.g. deployment=web",
    ],
    [["--account", "a/b", "--out", "-", "--password", "x"], "Unknown option '--password'"],
    [
      ["--account", "a/b", "--out", "-", "--force"],
      "--force: is for --out DIR: a stream on stdout overwrites nothing",
    ],
  ])("bad flags %j: exit 2 naming the flag", async (args, message) => {
    const r = await cli(["export", ...args], ENV);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it("credentials only from the environment: none, or both kinds, is exit 2 naming the variables", async () => {
    const none = await cli([...base(), "--out", "-"], {});
    expect(none.code).toBe(2);
    expect(none.err).toContain("set SVC_REFRESH_TOKEN (or SVC_EMAIL and SVC_PASSWORD)");
    const both = await cli([...base(), "--out", "-"], {
      ...ENV,
      SVC_EMAIL: "a@example.com",
      SVC_PASSWORD: "p",
    });
    expect(both.code).toBe(2);
    expect(both.err).toContain("set either SVC_REFRESH_TOKEN or SVC_EMAIL and SVC_PASSWORD, not both");
  });

  it("a filter naming nothing is exit 2; refused credentials, an unreachable service or a missing Account exit 1 naming what failed", async () => {
    const nothing = await cli([...base(), "--out", "-", "--filter", "deployment=nope"], ENV);
    expect(nothing).toMatchObject({ code: 2 });
    expect(nothing.err).toContain("--filter deployment=nope: the account has no Deployment named nope");
    const refused = await cli([...base(), "--out", "-"], { SVC_REFRESH_TOKEN: "wrong-token" });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `svc-operator export: the service at ${stack.sim.url} refused the credentials`,
    );
    expect(refused.err).not.toContain("wrong-token");
    const gone: Simulator = await createSimulator();
    const url = gone.url;
    await gone.close();
    const unreachable = await cli(["export", "--endpoint", url, "--account-id", "1", "--out", "-"], ENV);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain(`svc-operator export: cannot reach the service at ${url}`);
    const missing = await cli([
      "export",
      "--kubeconfig",
      kubeconfig,
      "--account",
      "team-a/other",
      "--out",
      "-",
    ]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("Account team-a/other not found in the cluster of --kubeconfig");
  }, 60_000);
});
