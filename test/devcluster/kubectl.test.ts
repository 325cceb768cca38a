import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

const kubectlPath = onPath("kubectl");
if (!kubectlPath)
  console.warn("kubectl is not on PATH: skipping the kubectl tests (apt-get install kubernetes-client)");

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.kubectl.svc.io
spec:
  group: kubectl.svc.io
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo, shortNames: [gzm], categories: [svctest]}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the gizmo should be.
            properties:
              size: {type: integer, minimum: 1, description: How many parts the gizmo has.}
          status:
            type: object
            properties:
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  required: [type, status]
                  properties:
                    type: {type: string}
                    status: {type: string}
`;

const GIZMO = `apiVersion: kubectl.svc.io/v1alpha1
kind: Gizmo
metadata: {name: g1, namespace: default}
spec: {size: 3}
`;

describe.skipIf(!kubectlPath)(
  `kubectl against the devcluster${kubectlPath ? "" : " (skipped: kubectl not on PATH)"}`,
  () => {
    let cluster: DevCluster;
    let dir: string;
    const kubectl = (args: string[], input?: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          kubectlPath!,
          [`--kubeconfig=${join(dir, "config")}`, `--cache-dir=${join(dir, "cache")}`, ...args],
          { timeout: 30_000 },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
        if (input !== undefined) child.stdin!.end(input);
      });

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "devcluster-kubectl-"));
      cluster = await createDevCluster({ tls: true, kubeconfigPath: join(dir, "config") });
      await writeFile(join(dir, "crd.yaml"), CRD);
      await writeFile(join(dir, "gizmo.yaml"), GIZMO);
    });
    afterAll(async () => {
      await cluster?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it("applies a CRD, waits for Established, and lists the new resource in api-resources", async () => {
      const applied = await kubectl(["apply", "-f", join(dir, "crd.yaml")]);
      expect(applied.stderr).toBe("");
      expect(applied.stdout).toContain(
        "customresourcedefinition.apiextensions.k8s.io/gizmos.kubectl.svc.io created",
      );
      const waited = await kubectl([
        "wait",
        "--for=condition=Established",
        "crd/gizmos.kubectl.svc.io",
        "--timeout=20s",
      ]);
      expect(waited.stdout).toContain("condition met");
      const resources = await kubectl(["api-resources", "--api-group=kubectl.svc.io"]);
      expect(resources.stdout).toMatch(/gizmos\s+gzm\s+kubectl\.svc\.io\/v1alpha1\s+true\s+Gizmo/);
    });

    it("explains the kind's fields with the CRD's descriptions, and ObjectMeta's", async () => {
      const spec = await kubectl(["explain", "gizmos.spec"]);
      expect(spec.stderr).toBe("");
      expect(spec.stdout).toContain("What the gizmo should be.");
      expect(spec.stdout).toMatch(/size\t<integer>\n\s+How many parts the gizmo has\./);
      const metadata = await kubectl(["explain", "gizmos.metadata"]);
      expect(metadata.stdout).toMatch(/name\t<string>\n\s+Name must be unique within a namespace\./);
      expect(metadata.stdout).not.toContain("<no description>");
    });

    it("applies a custom resource from YAML and prints the CRD's printer columns", async () => {
      const applied = await kubectl(["apply", "-f", join(dir, "gizmo.yaml")]);
      expect(applied.stdout).toContain("gizmo.kubectl.svc.io/g1 created");
      const got = await kubectl(["get", "gizmos"]);
      expect(got.stdout).toMatch(/^NAME\s+SIZE\s+READY\s+AGE\n/);
      expect(got.stdout).toMatch(/\ng1\s+3\s+\S+/);
      const byShort = await kubectl(["get", "gzm", "g1", "-o", "jsonpath={.spec.size}"]);
      expect(byShort.stdout).toBe("3");
      const byCategory = await kubectl(["get", "svctest"]);
      expect(byCategory.stdout).toContain("g1");
      const again = await kubectl(["apply", "--server-side", "-f", join(dir, "gizmo.yaml")]);
      expect(again.stdout).toContain("serverside-applied");
    });

    it("waits for a condition set through the status subresource", async () => {
      const patched = await kubectl([
        "patch",
        "gizmo",
        "g1",
        "--subresource=status",
        "--type=merge",
        "-p",
        '{"status":{"conditions":[{"type":"Ready","status":"True"}]}}',
      ]);
      expect(patched.stdout).toContain("patched");
      const waited = await kubectl(["wait", "--for=condition=Ready", "gizmo/g1", "--timeout=20s"]);
      expect(waited.stdout).toContain("condition met");
      const got = await kubectl(["get", "gizmo", "g1"]);
      expect(got.stdout).toMatch(/\ng1\s+3\s+True\s+/);
    });

    it("shows the server's field errors on an invalid object", async () => {
      const bad = await kubectl(
        ["apply", "-f", "-"],
        GIZMO.replace("name: g1", "name: bad").replace("size: 3", "size: 0"),
      );
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain(
        "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1",
      );
    });

    it("creates namespaces, secrets and configmaps with kubectl create (protobuf request bodies)", async () => {
      expect((await kubectl(["create", "namespace", "team-k"])).stdout).toContain("namespace/team-k created");
      const secret = await kubectl([
        "create",
        "secret",
        "generic",
        "creds",
        "-n",
        "team-k",
        "--from-literal=token=s3cr3t",
      ]);
      expect(secret.stdout).toContain("secret/creds created");
      const value = await kubectl(["get", "secret", "creds", "-n", "team-k", "-o", "jsonpath={.data.token}"]);
      expect(Buffer.from(value.stdout, "base64").toString()).toBe("s3cr3t");
      const cm = await kubectl([
        "create",
        "configmap",
        "settings",
        "-n",
        "team-k",
        "--from-literal=mode=fast",
      ]);
      expect(cm.stdout).toContain("configmap/settings created");
      expect(
        (await kubectl(["get", "cm", "settings", "-n", "team-k", "-o", "jsonpath={.data.mode}"])).stdout,
      ).toBe("fast");
      const labels = await kubectl(["get", "ns", "team-k", "-o", "jsonpath={.metadata.labels}"]);
      expect(JSON.parse(labels.stdout)).toEqual({ "kubernetes.io/metadata.name": "team-k" });
      const ns = JSON.parse((await kubectl(["get", "ns", "team-k", "-o", "json"])).stdout);
      expect(ns.spec).toEqual({ finalizers: ["kubernetes"] });
      expect(ns.metadata.generateName).toBeUndefined();
      // kubectl waits for the namespace to be gone, which it is only once emptied.
      const deleted = await kubectl(["delete", "namespace", "team-k"]);
      expect(deleted.stdout).toContain('namespace "team-k" deleted');
      expect((await kubectl(["get", "ns", "team-k"])).stderr).toContain("NotFound");
      expect((await kubectl(["get", "configmaps,secrets", "-n", "team-k"])).stderr).toContain(
        "No resources found",
      );
    });

    it("a namespace whose content has finalizers is Terminating and says what it waits for", async () => {
      await kubectl(["create", "namespace", "team-h"]);
      const held = GIZMO.replace("namespace: default}", "namespace: team-h, finalizers: [x.io/hold]}");
      expect((await kubectl(["apply", "-f", "-"], held)).stdout).toContain("gizmo.kubectl.svc.io/g1 created");
      await kubectl(["delete", "namespace", "team-h", "--wait=false"]);
      expect((await kubectl(["get", "ns", "team-h"])).stdout).toMatch(/\nteam-h\s+Terminating\s/);
      const remaining = await kubectl([
        "get",
        "ns",
        "team-h",
        "-o",
        'jsonpath={.status.conditions[?(@.type=="NamespaceContentRemaining")].message}',
      ]);
      expect(remaining.stdout).toBe(
        "Some resources are remaining: gizmos.kubectl.svc.io has 1 resource instances",
      );
      const refused = await kubectl(["create", "configmap", "late", "-n", "team-h"]);
      expect(refused.stderr).toContain(
        "unable to create new content in namespace team-h because it is being terminated",
      );
      await kubectl([
        "patch",
        "gizmo",
        "g1",
        "-n",
        "team-h",
        "--type=merge",
        "-p",
        '{"metadata":{"finalizers":null}}',
      ]);
      const waited = await kubectl(["wait", "--for=delete", "namespace/team-h", "--timeout=20s"]);
      expect(waited.code).toBe(0);
    });

    it("reports a kind the server does not serve as kube-apiserver does, after reading /openapi/v2", async () => {
      const bar = "apiVersion: foo.example.com/v1\nkind: Bar\nmetadata: {name: b1, namespace: default}\n";
      await writeFile(join(dir, "bar.yaml"), bar);
      const applied = await kubectl(["apply", "-f", join(dir, "bar.yaml")]);
      expect(applied.code).not.toBe(0);
      expect(applied.stderr).toBe(
        `error: resource mapping not found for name: "b1" namespace: "default" from "${join(dir, "bar.yaml")}": no matches for kind "Bar" in version "foo.example.com/v1"\nensure CRDs are installed first\n`,
      );
      // The same protobuf document serves explain's openapiv2 output.
      const explained = await kubectl(["explain", "--output", "plaintext-openapiv2", "gizmos.spec"]);
      expect(explained.stderr).toBe("");
      expect(explained.stdout).toMatch(/size\t<integer>\n\s+How many parts the gizmo has\./);
    });

    it("lists a category's kinds sorted by plural, whatever order their CRDs came in", async () => {
      const anvils = CRD.replaceAll("gizmos", "anvils").replace(
        "gizmo, kind: Gizmo, shortNames: [gzm]",
        "anvil, kind: Anvil, shortNames: [anv]",
      );
      expect((await kubectl(["apply", "-f", "-"], anvils)).stdout).toContain("anvils.kubectl.svc.io created");
      await kubectl(["wait", "--for=condition=Established", "crd/anvils.kubectl.svc.io", "--timeout=20s"]);
      const anvil = GIZMO.replace("kind: Gizmo", "kind: Anvil").replace("name: g1", "name: a1");
      expect((await kubectl(["apply", "-f", "-"], anvil)).stdout).toContain(
        "anvil.kubectl.svc.io/a1 created",
      );
      // A cache of its own: the shared one still holds the category without anvils.
      const got = await kubectl(["get", "svctest", "-o", "name", `--cache-dir=${join(dir, "cache-order")}`]);
      expect(got.stdout).toBe("anvil.kubectl.svc.io/a1\ngizmo.kubectl.svc.io/g1\n");
      expect((await kubectl(["delete", "crd", "anvils.kubectl.svc.io"])).stdout).toContain("deleted");
    });

    it("takes over a client-side applied object with server-side apply, dropping last-applied", async () => {
      const manifest = GIZMO.replace("name: g1", "name: csa");
      expect((await kubectl(["apply", "-f", "-"], manifest)).stdout).toContain(
        "gizmo.kubectl.svc.io/csa created",
      );
      const annotations = ["get", "gizmo", "csa", "-o", "jsonpath={.metadata.annotations}"];
      expect((await kubectl(annotations)).stdout).toContain(
        "kubectl.kubernetes.io/last-applied-configuration",
      );
      const taken = await kubectl(
        ["apply", "--server-side", "--force-conflicts", "--field-manager=other", "-f", "-"],
        manifest,
      );
      expect(taken.stderr).toBe("");
      expect(taken.stdout).toContain("gizmo.kubectl.svc.io/csa serverside-applied");
      expect((await kubectl(annotations)).stdout).toBe("");
      const managers = await kubectl([
        "get",
        "gizmo",
        "csa",
        "--show-managed-fields",
        "-o",
        "jsonpath={.metadata.managedFields[*].manager}",
      ]);
      expect(managers.stdout).toBe("other");
      expect((await kubectl(["get", "gizmo", "csa", "-o", "jsonpath={.spec.size}"])).stdout).toBe("3");
      expect((await kubectl(["delete", "gizmo", "csa"])).stdout).toContain("deleted");
    });

    it("deletes the custom resource, then the CRD", async () => {
      const deleted = await kubectl(["delete", "-f", join(dir, "gizmo.yaml")]);
      expect(deleted.stdout).toContain('gizmo.kubectl.svc.io "g1" deleted');
      const empty = await kubectl(["get", "gizmos"]);
      expect(empty.stderr).toContain("No resources found");
      const crd = await kubectl(["delete", "-f", join(dir, "crd.yaml"), "--wait=true"]);
      expect(crd.stdout).toContain("deleted");
      const gone = await kubectl(["get", "crd", "gizmos.kubectl.svc.io"]);
      expect(gone.code).not.toBe(0);
      expect(gone.stderr).toContain("NotFound");
    });
  },
);
