import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/commands.ts";
import { dev } from "../../src/dev/command.ts";
import { crdSources, managedKinds } from "../../src/kinds/index.ts";
import { CONFIG_FLAGS } from "../../src/runtime/config/index.ts";
import { Reason } from "../../src/runtime/sdk/index.ts";
import {
  MemoryMetrics,
  OperatorMetrics,
  operatorRegistry,
  RESOURCE_CONDITION,
} from "../../src/runtime/telemetry/index.ts";
import { parseYamlFile } from "./render.ts";

/** Docs must be true of the code: links resolve, tables list what the code has. */

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const OWN_DOCS = [
  "README.md",
  "docs/dev.md",
  "docs/install.md",
  "docs/gitops.md",
  "docs/troubleshooting.md",
  "docs/brownfield.md",
  "docs/plan-in-ci.md",
];
const README = read("README.md");

/** Rows of the markdown table whose header row starts with `first` (cells trimmed, backticks kept). */
function table(text: string, first: string): string[][] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  expect(start, `a table starting with "${first}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}
const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
function anchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\w\- ]/g, "")
        .replace(/ /g, "-"),
    ),
  );
}

/** The fields the generated CRD of `kind` declares immutable (CEL transition rules). */
function celImmutable(kind: string): string[] {
  const fields: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-kubernetes-validations")
        for (const rule of value as { message?: string }[]) {
          const m = /^(\w+) is immutable/.exec(rule.message ?? "");
          if (m) fields.push(m[1]!);
        }
      else walk(value);
    }
  };
  walk(parseYamlFile(join(ROOT, "crds", `${kind.toLowerCase()}.yaml`)));
  return fields;
}

describe("documentation", () => {
  it.each(OWN_DOCS)("%s: every relative link and anchor resolves", (file) => {
    for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split("#");
      // `#anchor` alone points into the page itself.
      const resolved = path ? join(ROOT, dirname(file), path) : join(ROOT, file);
      expect(existsSync(resolved), `${file} -> ${target}`).toBe(true);
      if (anchor)
        expect(anchors(readFileSync(resolved, "utf8")).has(anchor), `${file} -> ${target}`).toBe(true);
    }
  });

  it("README lists every subcommand and every kind with its short name", () => {
    const subcommands = table(README, "subcommand").map((r) => code(r[0]!)[0]);
    expect(subcommands.sort()).toEqual(commands.map((c) => `svc-operator ${c.name}`).sort());
    const kinds = table(README, "kind").map((r) => [code(r[0]!)[0], code(r[1]!)[0]]);
    expect(kinds.sort()).toEqual(
      crdSources()
        .map((s) => [s.kind, s.shortNames?.[0]])
        .sort(),
    );
  });

  it("README's configuration table matches the run command's flags, variables and defaults", () => {
    for (const row of table(README, "flag")) {
      const [flag] = code(row[0]!);
      if (!flag?.startsWith("--") || !row[1]?.includes("SVC_OPERATOR")) continue;
      const spec = CONFIG_FLAGS[flag.slice(2) as keyof typeof CONFIG_FLAGS];
      expect(spec, flag).toBeDefined();
      expect(code(row[1]!)[0], flag).toBe(spec.env);
      const def = "default" in spec ? spec.default : spec.key === "leaderElect" ? "false" : "all";
      const documented = row[2]!.replace(/`/g, "");
      if (spec.key === "labelSelector") expect(documented).toBe("none");
      else if (spec.key === "allowedEndpoints") expect(documented).toBe("any");
      else expect(documented, flag).toBe(def);
    }
  });

  it("docs/dev.md lists exactly the dev command's flags, with their defaults", () => {
    const rows = table(read("docs/dev.md"), "flag");
    const documented = rows.map((r) => code(r[0]!)[0]!.split(" ")[0]!);
    expect(documented.sort()).toEqual(
      Object.keys(dev.flags)
        .map((f) => `--${f}`)
        .sort(),
    );
    for (const r of rows) {
      const name = code(r[0]!)[0]!.split(" ")[0]!.slice(2);
      const def = dev.flags[name]!.default;
      if (def !== undefined) expect(code(r[1]!)[0], name).toBe(def);
    }
  });

  it("README's alerts are the PrometheusRule's", () => {
    const [rule] = parseYamlFile(join(ROOT, "deploy", "monitoring", "prometheusrule.yaml")) as {
      spec: { groups: { rules: { alert: string }[] }[] };
    }[];
    const alerts = rule!.spec.groups.flatMap((g) => g.rules.map((r) => r.alert)).sort();
    expect(
      table(README, "alert")
        .map((r) => code(r[0]!)[0])
        .sort(),
    ).toEqual(alerts);
  });

  it("docs/operator.md names every metric family the operator exports", async () => {
    const registry = operatorRegistry({});
    new OperatorMetrics(registry);
    new MemoryMetrics(registry, () => ({}));
    const families = [...registry.getMetricsAsArray().map((m) => m.name), RESOURCE_CONDITION.name];
    expect(families.length).toBeGreaterThan(40);
    const text = read("docs/operator.md");
    for (const name of families) expect(text, name).toMatch(new RegExp(`\`${name}(\\{[^\`]*\\})?\``));
  });

  it("docs/troubleshooting.md covers every condition reason of the runtime", () => {
    const text = read("docs/troubleshooting.md");
    for (const reason of Object.values(Reason)) expect(text, reason).toContain(`\`${reason}\``);
  });

  it("docs/troubleshooting.md's immutable fields are the kinds' own and their CRDs' rules", () => {
    const rows = new Map(table(read("docs/troubleshooting.md"), "kind").map((r) => [code(r[0]!)[0], r]));
    expect([...rows.keys()].sort()).toEqual(managedKinds.map((k) => k.kind).sort());
    for (const kind of managedKinds) {
      const [, refused, replaced] = rows.get(kind.kind)!;
      const fields = [...(kind.immutable ?? [])];
      expect(code(refused!), `${kind.kind}: refused`).toEqual(kind.replace ? [] : fields);
      expect(code(replaced!), `${kind.kind}: replaced`).toEqual(kind.replace ? fields : []);
      // "refused" is the apiserver's doing: the CRD carries a rule for exactly those fields.
      expect(celImmutable(kind.kind), `${kind.kind}: CRD rules`).toEqual(kind.replace ? [] : fields);
    }
  });

  it("README's install section names the command that installs the base", () => {
    expect(README).toContain("kubectl apply -k deploy/");
    expect(existsSync(join(ROOT, "deploy", "kustomization.yaml"))).toBe(true);
  });

  it("README's limits name as not built only kinds that are not registered", () => {
    const line = README.split("\n").find((l) => l.includes("not built"));
    // Every kind the design names is built: nothing to check.
    if (line === undefined) return;
    const next = README.split("\n")[README.split("\n").indexOf(line!) + 1] ?? "";
    const named = code(`${line} ${next}`);
    expect(named.length).toBeGreaterThan(0);
    const registered = new Set(crdSources().map((s) => s.kind));
    for (const kind of named)
      expect(registered.has(kind), `${kind} is registered now: update README's limits`).toBe(false);
  });

  it("README's documentation index links every page of docs/", () => {
    const pages = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
    for (const page of pages) expect(README, page).toContain(`](docs/${page})`);
  });
});
