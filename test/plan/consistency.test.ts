import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import { applyDirectory, cli, exportedStack, type Write } from "../export/rig.ts";
import { getCr, type Stack, startOperator, waitFor, waitForConditionWith } from "../operator/harness.ts";

const NS = "cons";

/** The changes, as a user makes them: edits of the exported files. */
const EDITS: [file: string, from: string, to: string][] = [
  ["networks/main.yaml", "description: main network", "description: the main network"],
  ["deployments/web.yaml", "description: Web tier", "description: Web tier, v2"],
  ["deployments/batch-jobs.yaml", "locked: true", "locked: false"],
  ["subnets/main-b.yaml", "description: zone b", "description: zone B"],
  ["subnets/main-b.yaml", "name: main-b\n  description", "name: main-b2\n  description"],
  ["networkgateways/main-igw.yaml", "type: internet", "type: internet\n  description: the way out"],
  ["routes/route-2.yaml", "nextHopIp: 10.10.1.10", "nextHopIp: 10.10.1.11"],
  ["routes/route-3.yaml", "https://hop.example.com/a", "https://hop.example.com/b"],
  ["volumes/data.yaml", "name: data\n  datacenterHref", "name: data-renamed\n  datacenterHref"],
  ["ipaddresses/web-ip.yaml", "name: web-ip\n  domain", "name: web-ip-renamed\n  domain"],
  ["resourcegroups/rg-main.yaml", "description: main group", "description: main group, v2"],
  ["recurringvolumeattachments/recurringvolumeattachment-1.yaml", "/dev/xvdb", "/dev/xvdc"],
  ["routetables/private.yaml", "description: no internet", "description: no internet, v2"],
  [
    "networks/main.yaml",
    "defaultRouteTableRef:\n    name: default\n",
    "defaultRouteTableRef:\n    name: private\n",
  ],
  [
    "subnets/main-a.yaml",
    "datacenters/1\n  name: main-a\n",
    "datacenters/1\n  name: main-a\n  routeTableRef:\n    name: private\n",
  ],
  ["alertspecs/cpu-very-busy.yaml", 'threshold: "5"', 'threshold: "6"'],
  ["ipaddressbindings/ipaddressbinding-1.yaml", "instances/1\n", "instances/2\n"],
  [
    "storedscriptattachments/storedscriptattachment-2.yaml",
    "filename: app config.json",
    "filename: app.json",
  ],
];

/**
 * The stored script attachment whose content changes too: its ConfigMap, committed beside it and
 * applied with the rest (changed in the cluster first, the operator's ConfigMap watch would
 * upload it before plan ran, racing the test).
 */
const NEW_CONTENT = {
  name: "storedscriptattachment-2-content",
  key: "app_config.json",
  text: '{"env": "staging"}\n',
};

/** The service parameter of a spec field, where it is not the field's snake case. */
const PARAMS: Record<string, string> = {
  contentFrom: "content",
  defaultRouteTableRef: "route_table_href",
  routeTableRef: "route_table_href",
};

/** Writes a manifest into the exported directory and lists it in its kustomization. */
async function addToKustomization(dir: string, file: string, object: Record<string, unknown>): Promise<void> {
  await mkdir(join(dir, dirname(file)), { recursive: true });
  await writeFile(join(dir, file), stringify(object));
  const path = join(dir, "kustomization.yaml");
  const k = parse(await readFile(path, "utf8")) as { resources: string[] };
  k.resources.push(file);
  await writeFile(path, stringify(k));
}

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface PlannedJson {
  kind: string;
  name: string;
  action: string;
  href?: string;
  changes: { field: string; service: unknown; desired: unknown }[];
}

/** The writes plan says the operator makes, per resource, as the request log would show them. */
function expectedWrites(resources: PlannedJson[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of resources) {
    const writes: string[] = [];
    if (r.action === "update")
      for (const c of r.changes)
        writes.push(
          c.field === "locked"
            ? `POST ${c.desired ? "lock" : "unlock"}`
            : `PUT ${PARAMS[c.field] ?? snake(c.field)}`,
        );
    if (r.action === "replace") writes.push("DELETE", "POST create");
    out[`${r.kind}/${r.name}`] = writes.sort();
  }
  return out;
}

/** What the simulator's request log shows of the same resources (audit entries aside). */
function loggedWrites(resources: PlannedJson[], log: Write[]): Record<string, string[]> {
  const out: Record<string, string[]> = Object.fromEntries(resources.map((r) => [`${r.kind}/${r.name}`, []]));
  const replaced = resources.filter((r) => r.action === "replace");
  for (const w of log) {
    if (w.path.startsWith("/api/audit_entries")) continue;
    // The resource of the longest href the path starts with (a route's href extends its table's).
    const r = resources
      .filter((x) => x.href && (w.path === x.href || w.path.startsWith(`${x.href}/`)))
      .sort((a, b) => b.href!.length - a.href!.length)[0];
    if (r && w.method === "PUT") {
      const wrapper = Object.values(w.params)[0] as Record<string, unknown>;
      out[`${r.kind}/${r.name}`]!.push(...Object.keys(wrapper).map((p) => `PUT ${p}`));
    } else if (r && w.method === "POST") out[`${r.kind}/${r.name}`]!.push(`POST ${w.path.split("/").pop()}`);
    else if (r && w.method === "DELETE") out[`${r.kind}/${r.name}`]!.push("DELETE");
    else {
      // A create into a collection: the replacement of the one resource of that collection being replaced.
      const by = replaced.filter((x) => w.path.endsWith(`/${x.href!.split("/").at(-2)}`));
      expect(by, `${w.method} ${w.path}`).toHaveLength(1);
      out[`${by[0]!.kind}/${by[0]!.name}`]!.push("POST create");
    }
  }
  for (const k of Object.keys(out)) out[k]!.sort();
  return out;
}

/**
 * For a set of changes, plan lists exactly the fields the operator's next reconcile updates: both
 * compared through the simulator's request log (method, object, parameters).
 */
describe("plan says what the operator then does", () => {
  let stack: Stack;
  let log: Write[];
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ stack, writes: log, dir, kubeconfig } = await exportedStack(NS, ["--layout", "object"]));
    await startOperator(stack);
    for (const m of await applyDirectory(stack, dir))
      if (m.kind !== "Account")
        await waitForConditionWith(stack, NS, m.kind, m.metadata.name, "Ready", "True", {
          timeoutMs: 30_000,
        });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("lists exactly the fields the next reconcile writes, and nothing for the rest", async () => {
    for (const [file, from, to] of EDITS) {
      const path = join(dir, file);
      const text = await readFile(path, "utf8");
      expect(text, `${file}: ${from}`).toContain(from);
      await writeFile(path, text.replace(from, to));
    }
    await addToKustomization(dir, "configmaps/content.yaml", {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: NEW_CONTENT.name, namespace: NS },
      // As the ConfigMap made from the download holds it (binaryData), so the apply replaces it.
      binaryData: { [NEW_CONTENT.key]: Buffer.from(NEW_CONTENT.text).toString("base64") },
    });
    log.length = 0;
    const r = await cli(["plan", "-f", dir, "--kubeconfig", kubeconfig, "-o", "json"]);
    expect(r.code, `${r.err}\n${r.out}`).toBe(2);
    const planned = (JSON.parse(r.out) as { resources: PlannedJson[] }).resources;
    expect(log).toEqual([]);
    const expected = expectedWrites(planned);
    // One resource changed per file edited (the attachment's content is one of its file's changes).
    expect(Object.values(expected).filter((w) => w.length > 0)).toHaveLength(
      new Set(EDITS.map(([f]) => f)).size,
    );
    expect(planned.find((p) => p.name === "storedscriptattachment-2")?.changes.map((c) => c.field)).toEqual([
      "filename",
      "contentFrom",
    ]);

    const applied = await applyDirectory(stack, dir);
    for (const p of planned.filter((x) => x.action !== "no change")) {
      const m = applied.find((a) => a.kind === p.kind && a.metadata.name === p.name)!;
      await waitFor(
        `${p.kind} ${p.name} reconciled`,
        async () => {
          const o = await getCr(stack, NS, p.kind, p.name);
          const ready = o?.status?.conditions?.find((c) => c.type === "Ready");
          const replaced = p.action !== "replace" || (o?.status?.href && o.status.href !== p.href);
          return (
            o?.status?.observedGeneration === o?.metadata.generation && ready?.status === "True" && replaced
          );
        },
        30_000,
      );
      expect(m.metadata.annotations?.[Annotation.href]).toBe(p.href);
    }
    expect(loggedWrites(planned, log)).toEqual(expected);
  }, 120_000);
});
