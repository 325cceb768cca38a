import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Manifest as KubeManifest } from "../../src/dev/apply.ts";
import { Annotation, API_VERSION } from "../../src/runtime/sdk/index.ts";
import {
  getCr,
  type Stack,
  serviceApi,
  startOperator,
  startStack,
  waitForConditionWith,
} from "../operator/harness.ts";
import { brownfield, type Made } from "./brownfield.ts";
import {
  applyDirectory,
  cli,
  createContentConfigMaps,
  kubeconfigFile,
  mutatingCalls,
  recordingResources,
  type Write,
} from "./rig.ts";

const NS = "brown";
const ENV = { SVC_REFRESH_TOKEN: "dev-refresh-token" };

/** Every file of a directory, by relative path, with its bytes. */
async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile())
      out[join(e.parentPath, e.name).slice(dir.length + 1)] = await readFile(
        join(e.parentPath, e.name),
        "utf8",
      );
  return out;
}

/** The manifest of a file (one per kind) that stands for the service object at `href`. */
function byHref(files: Record<string, string>, file: string, href: string | undefined) {
  const docs = files[file]!.split("---\n").map((d) => parse(d) as KubeManifest);
  const found = docs.find((d) => d.metadata.annotations?.[Annotation.href] === href);
  if (!found) throw new Error(`${file} has no manifest of ${href}`);
  return found as KubeManifest & { spec: Record<string, unknown> };
}

const managed = (applied: KubeManifest[]) =>
  applied.filter((m) => m.apiVersion === API_VERSION && m.kind !== "Account");

/**
 * The brownfield round trip, through real HTTP: objects of every kind made in the simulator through
 * its API, exported, applied to a fresh devcluster with the operator running: every resource
 * Ready, adopted, with no write to the service; plan of the same directory: no change; a second
 * export: the same bytes; then the same objects switched to Manage: still no write.
 */
describe("export, apply, adopt: the round trip", () => {
  let stack: Stack;
  let made: Made;
  const writes: Write[] = [];
  let dir: string;
  let kubeconfig: string;
  let applied: KubeManifest[];
  /** How many objects the export said it wrote. */
  let exported: number;

  beforeAll(async () => {
    stack = await startStack({ simulator: { resources: recordingResources(writes) } });
    made = await brownfield(serviceApi(stack));
    stack.sim.core.stats.clear();
    writes.length = 0;
    kubeconfig = await kubeconfigFile(stack);
    dir = await mkdtemp(join(tmpdir(), "svc-export-"));
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("exports every kind, references by name where both ends are exported", async () => {
    const r = await cli(
      ["export", "--endpoint", stack.sim.url, "--account-id", "1", "--out", dir, "--namespace", NS],
      ENV,
    );
    // Each stored script attachment says which ConfigMap its contentFrom names (export copies no content).
    const lines = r.err.split("\n");
    expect(lines.pop()).toMatch(/^exported \d+ objects of \d+ kinds to .* \(\d+ API calls\)$/);
    expect(lines).toContain(
      `warning: StoredScriptAttachment storedscriptattachment-2 (${made.script}): spec.contentFrom names ` +
        "ConfigMap storedscriptattachment-2-content key app_config.json, which export does not write (it copies " +
        "no file content): create it with the file's content (or point contentFrom at a Secret) before switching to Manage",
    );
    for (const line of lines)
      expect(line).toMatch(/^warning: StoredScriptAttachment .*: spec\.contentFrom names /);
    expect(r.code).toBe(0);
    exported = Number(/^exported (\d+)/m.exec(r.err)?.[1]);
    const files = await contents(dir);
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "account-secret.template.yaml",
        "account.yaml",
        "alertspecs.yaml",
        "deployments.yaml",
        "ipaddressbindings.yaml",
        "ipaddresses.yaml",
        "kustomization.yaml",
        "networkgateways.yaml",
        "networks.yaml",
        "permissions.yaml",
        "recurringvolumeattachments.yaml",
        "resourcegroups.yaml",
        "routes.yaml",
        "routetables.yaml",
        "storedscriptattachments.yaml",
        "subnets.yaml",
        "volumes.yaml",
      ]),
    );
    // The Secret's keys are named, never a value: the template's values are empty and no file holds the token.
    expect(parse(files["account-secret.template.yaml"]!).stringData).toEqual({ refreshToken: "" });
    for (const text of Object.values(files)) expect(text).not.toContain("dev-refresh-token");
    const routes = files["routes.yaml"]!.split("---\n").map((d) => parse(d));
    expect(routes[0]).toMatchObject({
      metadata: { name: "route-1", annotations: { [Annotation.href]: made.toInternet } },
      spec: {
        routeTableRef: { name: "default" },
        nextHopGatewayRef: { name: "main-igw" },
        managementPolicy: "ObserveOnly",
      },
    });
    // A route of another route table, and a subnet associated with it: by the table's name.
    expect(byHref(files, "routes.yaml", made.toPeer).spec).toMatchObject({
      routeTableRef: { name: "private" },
    });
    expect(byHref(files, "subnets.yaml", made.subC).spec).toMatchObject({
      routeTableRef: { name: "private" },
    });
    expect(byHref(files, "routetables.yaml", made.private).spec).toEqual({
      managementPolicy: "ObserveOnly",
      networkRef: { name: "main" },
      name: "private",
      description: "no internet",
    });
    // The network's default route table, by name: an association the update after a create makes.
    expect(byHref(files, "networks.yaml", made.main).spec).toMatchObject({
      deploymentRef: { name: "web" },
      defaultRouteTableRef: { name: "default" },
    });
    expect(byHref(files, "ipaddressbindings.yaml", made.binding).spec).toMatchObject({
      ipAddressRef: { name: "web-ip" },
      instanceHref: "/api/clouds/1/instances/1",
    });
    expect(byHref(files, "alertspecs.yaml", made.alert).spec).toMatchObject({
      subjectHref: "/api/server_templates/1",
      threshold: "5",
      escalationName: "warning",
    });
    expect(byHref(files, "storedscriptattachments.yaml", made.script).spec).toEqual({
      managementPolicy: "ObserveOnly",
      storedScriptHref: "/api/stored_scripts/1",
      filename: "app config.json",
      contentFrom: { configMapKeyRef: { name: "storedscriptattachment-2-content", key: "app_config.json" } },
    });
    // Two networks named main and Main: one name each, the same every time.
    expect(files["networks.yaml"]).toContain("name: main-2\n");
  });

  it("applied to a fresh cluster with the operator running, every resource is Ready and adopted, with no write to the service", async () => {
    await stack.core.createNamespace({ body: { metadata: { name: NS } } });
    const template = parse(
      (await readFile(join(dir, "account-secret.template.yaml"), "utf8"))
        .split("\n")
        .filter((l) => !l.startsWith("#"))
        .join("\n"),
    );
    await stack.core.createNamespacedSecret({
      namespace: NS,
      body: { ...template, stringData: { refreshToken: "dev-refresh-token" } },
    });
    await startOperator(stack);
    applied = await applyDirectory(stack, dir);
    // The brownfield objects, the seeded ones, one manifest each.
    expect(managed(applied)).toHaveLength(exported);
    for (const href of Object.values(made))
      expect(managed(applied).map((m) => m.metadata.annotations?.[Annotation.href])).toContain(href);
    for (const m of managed(applied)) {
      const obj = await waitForConditionWith(stack, NS, m.kind, m.metadata.name, "Ready", "True", {
        reason: "Available",
        timeoutMs: 30_000,
      });
      expect(obj.status?.href, `${m.kind} ${m.metadata.name}`).toBe(
        m.metadata.annotations?.[Annotation.href],
      );
    }
    expect(await mutatingCalls(stack)).toEqual([]);
    expect(writes).toEqual([]);
  }, 120_000);

  it("plan of the same directory says no change (exit 0)", async () => {
    const r = await cli(["plan", "-f", dir, "--kubeconfig", kubeconfig]);
    expect(r.err).toBe("");
    expect(r.out).toMatch(new RegExp(`Plan: ${managed(applied).length} unchanged\\. \\d+ API calls\\.$`));
    expect(r.code).toBe(0);
    expect(await mutatingCalls(stack)).toEqual([]);
  });

  it("a second export writes the same bytes", async () => {
    const again = await mkdtemp(join(tmpdir(), "svc-export-"));
    const r = await cli(
      ["export", "--endpoint", stack.sim.url, "--account-id", "1", "--out", again, "--namespace", NS],
      ENV,
    );
    expect(r.code).toBe(0);
    expect(await contents(again)).toEqual(await contents(dir));
  });

  it("switched to Manage (deletionPolicy Orphan), the resources stay Ready, and the service still sees no write", async () => {
    const manage = await mkdtemp(join(tmpdir(), "svc-export-"));
    const r = await cli(
      [
        "export",
        "--endpoint",
        stack.sim.url,
        "--account-id",
        "1",
        "--out",
        manage,
        "--namespace",
        NS,
        "--manage",
      ],
      ENV,
    );
    expect(r.code).toBe(0);
    // The content the attachments' contentFrom names, as the docs say: without it they would wait.
    expect(await createContentConfigMaps(stack, NS, manage)).toContain("storedscriptattachment-2-content");
    for (const m of managed(await applyDirectory(stack, manage))) {
      expect(m.spec).toMatchObject({ managementPolicy: "Manage", deletionPolicy: "Orphan" });
      await waitForConditionWith(stack, NS, m.kind, m.metadata.name, "Ready", "True", {
        reason: "Available",
        message: /^$/,
        timeoutMs: 30_000,
      });
      const obj = await getCr(stack, NS, m.kind, m.metadata.name);
      expect(obj?.metadata.finalizers).toContain("cloud.svc.io/finalizer");
    }
    expect(await mutatingCalls(stack)).toEqual([]);
    expect(writes).toEqual([]);
  }, 120_000);
});
