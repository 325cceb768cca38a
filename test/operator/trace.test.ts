import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Attributes, allows, type Rule, recordingProxy } from "../deploy/rbac.ts";
import { render } from "../deploy/render.ts";
import {
  createCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitForCondition,
} from "./harness.ts";

/**
 * `svc-operator trace` end to end: an operator works a namespace on the devcluster (a Deployment,
 * a Network on it, a Subnet that is Ready and one whose route table does not exist), then the
 * command, as a user runs it, prints the tree through a proxy that records each request, and
 * every request must be one the operator's own ClusterRole (and the view role) allows.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "src", "cli.ts");

let stack: Stack;
let dir: string;
let ns: string;
let proxy: Server;
let kubeconfig: string;
const seen: Attributes[] = [];

function trace(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, "trace", ...args], { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  stack = await startStack();
  dir = await mkdtemp(join(tmpdir(), "svc-operator-trace-"));
  const target = new URL(stack.cluster.url);
  proxy = await recordingProxy(stack.cluster.url, seen);
  kubeconfig = join(dir, "kubeconfig");
  await writeFile(
    kubeconfig,
    stack.cluster.kubeconfig.replace(
      target.origin,
      `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    ),
    { mode: 0o600 },
  );
  await startOperator(stack);
  ns = await namespaceWithAccount(stack);
  await createCr(stack, ns, "Deployment", "web", { description: "trace" });
  await createCr(stack, ns, "Network", "vpc", {
    cloudHref: "/api/clouds/1",
    cidrBlock: "10.20.0.0/16",
    description: "trace",
    deploymentRef: { name: "web" },
  });
  const subnet = (name: string, cidr: string, extra: Record<string, unknown> = {}) =>
    createCr(stack, ns, "Subnet", name, {
      networkRef: { name: "vpc" },
      cidrBlock: cidr,
      datacenterHref: "/api/clouds/1/datacenters/1",
      description: "trace",
      ...extra,
    });
  await subnet("a", "10.20.1.0/24");
  await subnet("b", "10.20.2.0/24", { routeTableRef: { name: "missing" } });
  await waitForCondition(stack, ns, "Subnet", "a", "Ready", "True", undefined, 30_000);
  await waitForCondition(stack, ns, "Subnet", "b", "Ready", "False", "DependencyNotReady", 30_000);
}, 90_000);

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The rows of the table: the not-Ready mark, the NAME cell (tree included) and the other cells, cut where the header's columns start. */
function rows(stdout: string) {
  const [header = "", ...lines] = stdout.trimEnd().split("\n");
  const starts = [...header.matchAll(/[A-Z]+/g)].map((m) => m.index);
  return lines.map((l) => {
    const [name, ...cells] = starts.map((at, i) => l.slice(at, starts[i + 1]).trimEnd());
    return { mark: l[0], name, cells };
  });
}

describe("svc-operator trace (devcluster, a real operator)", () => {
  it("the Deployment's tree: its Account above, the Network and its Subnets below, the not-Ready leaf marked", async () => {
    const { code, stdout, stderr } = await trace("deployment/web", "-n", ns, "--kubeconfig", kubeconfig);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toMatch(/^ {2}NAME +RELATION +READY +SYNCED +REASON +HREF +MESSAGE$/);
    expect(rows(stdout).map((r) => `${r.mark} ${r.name}`)).toEqual([
      "  Deployment/web",
      "  ├─ Account/default",
      "  └─ Network/vpc",
      "     ├─ Subnet/a",
      "!    └─ Subnet/b",
    ]);
    const [web, , vpc, a, b] = rows(stdout);
    expect(web!.cells.slice(0, 4)).toEqual(["", "True", "True", "Available"]);
    expect(web!.cells[4]).toMatch(/^\/api\/deployments\/\d+$/);
    expect(vpc!.cells[0]).toBe("used by (deploymentRef)");
    expect(a!.cells.slice(0, 3)).toEqual(["used by (networkRef)", "True", "True"]);
    expect(b!.cells.slice(0, 2)).toEqual(["used by (networkRef)", "False"]);
    expect(b!.cells[3]).toBe("DependencyNotReady");
    expect(b!.cells[5]).toContain("missing");
  });

  it("the not-Ready Subnet's tree names the missing route table; -o json has every node's conditions and href", async () => {
    const table = await trace("subnet/b", "-n", ns, "--kubeconfig", kubeconfig);
    expect(table.code).toBe(0);
    const missing = rows(table.stdout).find((r) => r.name!.endsWith("RouteTable/missing"))!;
    expect(missing.mark).toBe("!");
    expect(missing.cells).toEqual([
      "uses (routeTableRef)",
      "-",
      "-",
      "NotFound",
      "",
      'routetables.cloud.svc.io "missing" not found',
    ]);

    const json = await trace("svcsubnet", "b", "--namespace", ns, "--kubeconfig", kubeconfig, "-o", "json");
    expect(json.code).toBe(0);
    const tree = JSON.parse(json.stdout);
    expect(tree).toMatchObject({ kind: "Subnet", name: "b", namespace: ns, ready: "False" });
    expect(tree.synced).toMatch(/^(True|False)$/);
    expect(tree.message).toContain("missing");
    const children = tree.children as { kind: string; field: string; found: boolean; href: string }[];
    expect(children.map((c) => `${c.field} ${c.kind} ${c.found}`)).toEqual([
      "accountRef Account true",
      "networkRef Network true",
      "routeTableRef RouteTable false",
    ]);
    expect(children[1]!.href).toMatch(/^\/api\/networks\/\d+$/);

    const wide = await trace("subnet/b", "-n", ns, "--kubeconfig", kubeconfig, "-o", "wide");
    expect(wide.stdout).toContain(tree.message);
  });

  it("kubectl's errors and exit codes: not found, unknown type, bad output, unreachable cluster", async () => {
    const nowhere = join(dir, "nowhere");
    await writeFile(
      nowhere,
      stack.cluster.kubeconfig.replace(new URL(stack.cluster.url).origin, "http://127.0.0.1:1"),
    );
    // Side by side: each is a process start.
    const [notFound, type, output, usage, unreachable] = await Promise.all([
      trace("route/nope", "-n", ns, "--kubeconfig", kubeconfig),
      trace("pods/x", "-n", ns, "--kubeconfig", kubeconfig),
      trace("subnet/b", "-n", ns, "--kubeconfig", kubeconfig, "-o", "yaml"),
      trace("-n", ns),
      trace("subnet/b", "-n", ns, "--kubeconfig", nowhere),
    ]);
    expect(notFound).toEqual({
      code: 1,
      stdout: "",
      stderr: 'Error from server (NotFound): routes.cloud.svc.io "nope" not found\n',
    });
    expect([type.code, type.stderr]).toEqual([1, 'error: the server doesn\'t have a resource type "pods"\n']);
    expect(output.code).toBe(1);
    expect(output.stderr).toContain('unable to match a printer suitable for the output format "yaml"');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("you must specify one resource as KIND/NAME");
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^error: cannot reach the cluster at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
  });

  it("needs only what the operator's ClusterRole and the view role allow: lists of the custom resources", () => {
    const manifests = render(join(ROOT, "deploy"));
    const role = (name: string) =>
      (
        manifests.find((m) => m.kind === "ClusterRole" && m.metadata.name === name) as unknown as {
          rules: Rule[];
        }
      ).rules;
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) {
      expect(request.verb, request.line).toBe("list");
      expect(allows(role("svc-operator"), request), request.line).toBe(true);
      expect(allows(role("svc-operator-view"), request), request.line).toBe(true);
    }
  });
});
