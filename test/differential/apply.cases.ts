import { it } from "vitest";
import type { Both, Differ } from "./differ.ts";
import type { Answer } from "./endpoints.ts";
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
    // The order rests on each entry's time to the second, which each server takes itself: a step
    // one server ran just before a second turned and the other just after is ordered otherwise on
    // each. So the steps run in two groups, each started as a second turns, and an attempt whose
    // groups did not each keep to one second on both servers runs again on a fresh object.
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const steps = await managedFieldsOrderSteps(d, `order-${attempt}`);
      const final = steps.at(-1)![1];
      if (!inPlannedSeconds(final.dev.body) || !inPlannedSeconds(final.real.body)) continue;
      for (const [id, answers] of steps) d.alike(id, answers.dev, answers.real);
      return;
    }
    throw new Error("four attempts straddled a second's turn: the machine is too loaded to order by time");
  });
}

/** Group A, then group B a second later: each group's entries share a second on a server. */
const ORDER_GROUPS = [
  ["omega", "zeta-label", "eta-annotate", "mu"],
  ["alpha", "beta-annotate"],
];

/**
 * Applies and updates of one new object by six managers, in ORDER_GROUPS' two groups; expected
 * order: mu, omega, alpha (Apply: group A by manager, then B), eta, zeta, beta (Update). Returns
 * each step's answers, not compared yet, the last being a read of the object.
 */
async function managedFieldsOrderSteps(d: Differ, name: string): Promise<[string, Both<Answer>][]> {
  const steps: [string, Both<Answer>][] = [];
  const path = gizmos(d.namespace, name);
  const step = async (id: string, manager: string, contentType: string, body: unknown) =>
    steps.push([
      id,
      await d.both((s) =>
        s.call({ method: "PATCH", path: `${path}?fieldManager=${manager}`, contentType, body }),
      ),
    ]);
  await untilSecondTurns();
  await step("APPLY gizmo as omega (create)", "omega", APPLY, applied(name, "  size: 3\n  color: blue\n"));
  await step("PATCH gizmo as zeta-label", "zeta-label", MERGE, { metadata: { labels: { z: "1" } } });
  await step("PATCH gizmo as eta-annotate", "eta-annotate", MERGE, { metadata: { annotations: { e: "1" } } });
  await step("APPLY gizmo as mu", "mu", APPLY, applied(name, "  tags: [m]\n"));
  await untilSecondTurns();
  await step("APPLY gizmo as alpha", "alpha", APPLY, applied(name, "  ports:\n  - {name: http, port: 80}\n"));
  await step("PATCH gizmo as beta-annotate", "beta-annotate", MERGE, {
    metadata: { annotations: { b: "1" } },
  });
  steps.push(["GET gizmo with six managers", await d.both((s) => s.call({ path }))]);
  return steps;
}

/** Whether each group's entries in an object share one second, group B's a later one than A's. */
function inPlannedSeconds(object: unknown): boolean {
  const entries = (object as { metadata?: { managedFields?: { manager: string; time?: string }[] } }).metadata
    ?.managedFields;
  const second = (manager: string) =>
    Math.floor(Date.parse(entries?.find((e) => e.manager === manager)?.time ?? "") / 1000);
  const [a, b] = ORDER_GROUPS.map((group) => [...new Set(group.map(second))]);
  return a?.length === 1 && b?.length === 1 && a[0]! < b[0]!;
}

/** Resolves just after the wall clock's next second begins. */
function untilSecondTurns(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
}
