import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { it } from "vitest";
import type { Differ } from "./differ.ts";
import { GROUP } from "./fixtures.ts";

const manifests = (ns: string, size: number) => `apiVersion: ${GROUP}/v1
kind: Gizmo
metadata: {name: k1, namespace: ${ns}, labels: {app: a}}
spec: {size: ${size}, tags: [one]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: k1, namespace: ${ns}, labels: {app: a}}
data: {k: v}
`;

const unknownKind = (ns: string) => `apiVersion: ${GROUP}/v1
kind: Nothing
metadata: {name: n1, namespace: ${ns}}
`;

/**
 * The real kubectl against both: client-side and server-side apply, the takeover and diff after it,
 * label, annotate, patch, get (tables, YAML, selectors, chunks), explain, wait, delete, errors.
 */
export function kubectlCases(differ: () => Differ): void {
  it("applies, changes and reads objects with kubectl as on the real server", async () => {
    const d = differ();
    const ns = d.namespace;
    const file = join(d.pair.dir, "manifests.yaml");
    await writeFile(file, manifests(ns, 3));
    const k = (id: string, ...args: string[]) => d.kubectl(id, args);
    await k("apply -f", "apply", "-f", file);
    await k("apply -f again", "apply", "-f", file);
    await k("label", "label", "gizmo", "k1", "-n", ns, "x=1", "--field-manager=m1-label");
    await k("annotate", "annotate", "gizmo", "k1", "-n", ns, "y=2", "--field-manager=m2-annotate");
    await k(
      "patch --type=merge",
      "patch",
      "gizmo",
      "k1",
      "-n",
      ns,
      "--type=merge",
      "-p",
      '{"spec":{"tags":["two"]}}',
      "--field-manager=m3-patch",
    );
    await k(
      "patch --type=json",
      "patch",
      "configmap",
      "k1",
      "-n",
      ns,
      "--type=json",
      "-p",
      '[{"op":"add","path":"/data/j","value":"1"}]',
    );
    await k("patch (strategic)", "patch", "configmap", "k1", "-n", ns, "-p", '{"data":{"s":"1"}}');
    await k("patch a gizmo (strategic)", "patch", "gizmo", "k1", "-n", ns, "-p", '{"spec":{"size":4}}');
    await k("apply --server-side conflict", "apply", "--server-side", "--field-manager=other", "-f", file);
    await k(
      "apply --server-side --force-conflicts",
      "apply",
      "--server-side",
      "--force-conflicts",
      "--field-manager=other",
      "-f",
      file,
    );
    await k("diff after the takeover", "diff", "-f", file);
    await writeFile(file, manifests(ns, 5));
    await k("diff of a change", "diff", "-f", file);
    await k(
      "apply --server-side --dry-run=server",
      "apply",
      "--server-side",
      "--field-manager=other",
      "--dry-run=server",
      "-f",
      file,
      "-o",
      "yaml",
    );
    await k(
      "get --show-managed-fields",
      "get",
      "gizmo",
      "k1",
      "-n",
      ns,
      "-o",
      "json",
      "--show-managed-fields",
    );
    await k(
      "get configmap --show-managed-fields",
      "get",
      "configmap",
      "k1",
      "-n",
      ns,
      "-o",
      "yaml",
      "--show-managed-fields",
    );
  });

  it("gets tables, YAML, selections and chunks as on the real server", async () => {
    const d = differ();
    const ns = d.namespace;
    const k = (id: string, ...args: string[]) => d.kubectl(id, args);
    await k("get gizmos", "get", "gizmos", "-n", ns);
    await k("get gizmos -o wide --show-labels", "get", "gizmos", "-n", ns, "-o", "wide", "--show-labels");
    await k("get svcdiff (category)", "get", "svcdiff", "-n", ns);
    await k("get gzm -l", "get", "gzm", "-n", ns, "-l", "app=a");
    await k("get --field-selector", "get", "gizmos", "-n", ns, "--field-selector", "metadata.name=k1");
    await k("get --chunk-size=1", "get", "gizmos,configmaps", "-n", ns, "--chunk-size=1");
    await k("get -o yaml", "get", "gizmo", "k1", "-n", ns, "-o", "yaml");
    await k("get -o jsonpath", "get", "gizmos", "-n", ns, "-o", "jsonpath={.items[*].metadata.name}");
    await k("get -A", "get", "gizmos", "-A", "-l", "app=a");
    await k("get configmaps,secrets", "get", "configmaps,secrets", "-n", ns);
    await k("get events", "get", "events", "-n", ns);
    await k("get events.events.k8s.io", "get", "events.events.k8s.io", "-n", ns);
    await k("get leases", "get", "leases", "-n", ns);
    await k("get namespace", "get", "namespace", ns);
    await k("get crd", "get", "crd", `gizmos.${GROUP}`);
    await k("api-resources --api-group", "api-resources", `--api-group=${GROUP}`);
    await k("explain gizmos.spec", "explain", "gizmos.spec");
    await k("explain gizmos.metadata.labels", "explain", "gizmos.metadata.labels");
    await k(
      "create configmap --dry-run=server",
      "create",
      "configmap",
      "dry",
      "-n",
      ns,
      "--from-literal=a=b",
      "--dry-run=server",
      "-o",
      "yaml",
    );
    await k(
      "wait --for=jsonpath",
      "wait",
      "gizmo/k1",
      "-n",
      ns,
      "--for=jsonpath={.spec.size}=3",
      "--timeout=5s",
    );
  });

  it("deletes and reports errors as on the real server", async () => {
    const d = differ();
    const ns = d.namespace;
    const k = (id: string, ...args: string[]) => d.kubectl(id, args);
    const unknown = join(d.pair.dir, "unknown.yaml");
    await writeFile(unknown, unknownKind(ns));
    await k("apply an unknown kind", "apply", "-f", unknown);
    await k("get an unknown resource", "get", "nothings", "-n", ns);
    await k("get a missing gizmo", "get", "gizmo", "missing", "-n", ns);
    await d.kubectl(
      "create an invalid gizmo from stdin",
      ["create", "-n", ns, "-f", "-"],
      `apiVersion: ${GROUP}/v1\nkind: Gizmo\nmetadata: {name: bad}\nspec: {size: 0}\n`,
    );
    await k("create an existing configmap", "create", "configmap", "k1", "-n", ns);
    await k("delete gizmo", "delete", "gizmo", "k1", "-n", ns);
    await k("delete -l", "delete", "configmaps", "-n", ns, "-l", "app=a");
    await k("delete a missing gizmo", "delete", "gizmo", "k1", "-n", ns);
    await k("delete --ignore-not-found", "delete", "gizmo", "k1", "-n", ns, "--ignore-not-found");
  });
}
