import { it } from "vitest";
import type { Differ } from "./differ.ts";
import { core, GROUP, gizmos } from "./fixtures.ts";

const APPLY = "application/apply-patch+yaml";
const MERGE = "application/merge-patch+json";

const applied = (name: string, spec: string, extra = "") =>
  `apiVersion: ${GROUP}/v1\nkind: Gizmo\nmetadata:\n  name: ${name}\n${extra}spec:\n${spec}`;

/** Server-side apply: ownership, conflicts, force, dry runs, the status subresource, managedFields order. */
export function applyCases(differ: () => Differ): void {
  it("applies server-side, with conflicts, force and dry runs", async () => {
    const d = differ();
    const ns = d.namespace;
    const apply = (id: string, name: string, query: string, body: string, subresource?: string) =>
      d.http(id, {
        method: "PATCH",
        path: `${gizmos(ns, name, subresource)}?${query}`,
        contentType: APPLY,
        body,
      });
    await apply(
      "APPLY gizmo (create)",
      "a1",
      "fieldManager=alpha",
      applied("a1", "  size: 3\n  tags: [x]\n  ports:\n  - {name: http, port: 80}\n", "  labels: {app: a}\n"),
    );
    await apply(
      "APPLY gizmo second manager",
      "a1",
      "fieldManager=beta",
      applied("a1", "  ports:\n  - {name: https, port: 443}\n"),
    );
    await apply("APPLY gizmo conflict", "a1", "fieldManager=beta", applied("a1", "  size: 4\n  tags: [z]\n"));
    await apply("APPLY gizmo force", "a1", "fieldManager=beta&force=true", applied("a1", "  size: 4\n"));
    await apply("APPLY gizmo dryRun", "a1", "fieldManager=gamma&dryRun=All", applied("a1", "  size: 5\n"));
    await apply("APPLY gizmo without fieldManager", "a1", "", applied("a1", "  size: 5\n"));
    await apply(
      "APPLY gizmo with a force and no conflict",
      "a1",
      "fieldManager=alpha&force=true",
      applied("a1", "  size: 4\n  tags: [x]\n"),
    );
    await apply(
      "APPLY gizmo shrinking the owned set",
      "a1",
      "fieldManager=alpha",
      applied("a1", "  size: 4\n", "  labels: {app: a}\n"),
    );
    await apply("APPLY gizmo invalid", "a1", "fieldManager=alpha", applied("a1", "  size: 40\n"));
    await apply(
      "APPLY gizmo unknown field",
      "a1",
      "fieldManager=alpha&fieldValidation=Strict",
      applied("a1", "  size: 4\n  nope: 1\n"),
    );
    await apply(
      "APPLY gizmo unknown field (warn)",
      "a1",
      "fieldManager=alpha&fieldValidation=Warn",
      applied("a1", "  size: 4\n  nope: 1\n"),
    );
    await apply(
      "APPLY gizmo/status",
      "a1",
      "fieldManager=status-writer",
      applied("a1", "", "").replace("spec:\n", "status:\n  phase: Up\n"),
      "status",
    );
    await apply("APPLY gizmo not YAML", "a1", "fieldManager=alpha", "{{{");
    await apply(
      "APPLY gizmo of another kind",
      "a1",
      "fieldManager=alpha",
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a1}\n",
    );
    await d.http("APPLY configmap (create)", {
      method: "PATCH",
      path: `${core(ns, "configmaps", "ac")}?fieldManager=alpha`,
      contentType: APPLY,
      body: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ac\ndata:\n  k: v\n",
    });
    await d.http("GET gizmo after applies", { path: gizmos(ns, "a1") });
  });

  it("orders managedFields as the real server does: Apply first, then by time, then manager", async () => {
    const d = differ();
    const ns = d.namespace;
    const update = (manager: string, body: unknown) =>
      d.http(`PATCH gizmo as ${manager}`, {
        method: "PATCH",
        path: `${gizmos(ns, "a1")}?fieldManager=${manager}`,
        contentType: MERGE,
        body,
      });
    await update("zeta-label", { metadata: { labels: { z: "1" } } });
    await update("eta-annotate", { metadata: { annotations: { e: "1" } } });
    await d.http("APPLY gizmo as omega", {
      method: "PATCH",
      path: `${gizmos(ns, "a1")}?fieldManager=omega&force=true`,
      contentType: APPLY,
      body: applied("a1", "  color: blue\n"),
    });
    await update("kappa-patch", { spec: { tags: ["k"] } });
    await d.http("GET gizmo with five managers", { path: gizmos(ns, "a1") });
  });
}
