import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type JsonSchema, renderAll, structuralViolations } from "../runtime/crd/index.ts";

const repoRoot = join(import.meta.dirname, "..", "..");

import { crdSources } from "./index.ts";

// Short names kubectl already uses for built-in resources.
const BUILT_IN_SHORT_NAMES = new Set([
  "cs",
  "cm",
  "ep",
  "ev",
  "limits",
  "ns",
  "no",
  "pvc",
  "pv",
  "po",
  "rc",
  "quota",
  "sa",
  "svc",
  "crd",
  "crds",
  "ds",
  "deploy",
  "rs",
  "sts",
  "hpa",
  "cj",
  "csr",
  "ing",
  "netpol",
  "pdb",
  "psp",
  "pc",
  "sc",
  "ingclass",
  "ep",
]);

describe("generated CRDs", () => {
  const files = renderAll(crdSources());

  it("crds/ and docs/crds.md are up to date (run `npm run generate`)", async () => {
    for (const [file, content] of files) {
      const onDisk = await readFile(join(repoRoot, file), "utf8").catch(() => "<missing>");
      expect(onDisk, `${file} is stale: run npm run generate`).toBe(content);
    }
  });

  for (const [file, content] of files) {
    if (!file.endsWith(".yaml")) continue;
    it(`${file}: structural, described, svccloud, safe short names`, () => {
      const crd = parse(content.replace(/^#.*\n/, ""));
      const version = crd.spec.versions[0];
      const schema = version.schema.openAPIV3Schema as JsonSchema;
      expect(structuralViolations(schema)).toEqual([]);
      expect(crd.spec.names.categories).toContain("svccloud");
      for (const s of crd.spec.names.shortNames) expect(BUILT_IN_SHORT_NAMES.has(s), s).toBe(false);
      expect(version.subresources).toEqual({ status: {} });
      const names = version.additionalPrinterColumns.map((c: { name: string }) => c.name);
      expect(names.slice(0, 2)).toEqual(["Ready", "Synced"]);
      expect(names.at(-1)).toBe("Age");
      expect(undescribed((schema.properties as Record<string, JsonSchema>).spec!, "spec")).toEqual([]);
    });
  }
});

/** Fields without a description (kubectl explain must help on every field). */
function undescribed(s: JsonSchema, path: string): string[] {
  const out: string[] = [];
  if (!s.description) out.push(path);
  for (const [name, child] of Object.entries((s.properties as Record<string, JsonSchema>) ?? {})) {
    out.push(...undescribed(child, `${path}.${name}`));
  }
  if (s.additionalProperties && typeof s.additionalProperties === "object") {
    out.push(...undescribed(s.additionalProperties as JsonSchema, `${path}[*]`));
  }
  return out;
}
