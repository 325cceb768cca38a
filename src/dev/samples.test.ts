import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crdSources, managedKinds } from "../kinds/index.ts";
import { GROUP } from "../runtime/sdk/index.ts";
import { DEFAULT_SAMPLES } from "./command.ts";
import { isSupport, loadSamples } from "./samples.ts";

const KINDS = new Set(crdSources().map((s) => s.kind));

describe("deploy/samples", () => {
  it("covers every managed kind, and every spec passes its kind's schema", async () => {
    const samples = (await loadSamples(DEFAULT_SAMPLES, KINDS, GROUP)).filter((s) => !isSupport(s));
    const kinds = new Set(samples.map((s) => s.kind));
    for (const k of managedKinds) expect(kinds.has(k.kind), `a sample of ${k.kind}`).toBe(true);
    for (const s of samples) {
      const kind = managedKinds.find((k) => k.kind === s.kind)!;
      const parsed = kind.schema.safeParse(s.spec ?? {});
      expect(parsed.success, `${s.kind}/${s.metadata.name}: ${parsed.error?.message}`).toBe(true);
      expect(
        s.metadata.namespace,
        "samples are applied into a namespace of the user's choice",
      ).toBeUndefined();
    }
  });

  it("names are unique per kind, every reference names a sample, every ConfigMap key read is beside them", async () => {
    const all = await loadSamples(DEFAULT_SAMPLES, KINDS, GROUP);
    const samples = all.filter((s) => !isSupport(s));
    const keys = all.map((s) => `${s.kind}/${s.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of samples) {
      const kind = managedKinds.find((k) => k.kind === s.kind)!;
      const spec = kind.schema.parse(s.spec ?? {});
      for (const ref of kind.references(spec))
        expect(keys, `${s.metadata.name} -> ${ref.kind}/${ref.name}`).toContain(`${ref.kind}/${ref.name}`);
      for (const source of kind.keySources?.(spec) ?? []) {
        const map = all.find((m) => m.kind === source.kind && m.metadata.name === source.name);
        expect(map, `${s.metadata.name} -> ${source.kind}/${source.name}`).toBeDefined();
        expect(Object.keys({ ...(map?.data as object), ...(map?.binaryData as object) })).toContain(
          source.key,
        );
      }
    }
  });
});

describe("loadSamples errors name the file and the field", () => {
  const dir = mkdtempSync(join(tmpdir(), "samples-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (text: string) => writeFileSync(join(dir, "a.yaml"), text);

  it.each([
    {
      reason: "unknown kind",
      text: "apiVersion: cloud.svc.io/v1alpha1\nkind: Gizmo\nmetadata: {name: x}\n",
      error: /a\.yaml \(document 1\): kind must be one of .*Gizmo/,
    },
    {
      reason: "foreign group",
      text: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n",
      error: /apiVersion must be cloud\.svc\.io\/<version> \(or v1 for a ConfigMap\)/,
    },
    {
      reason: "a core kind other than a ConfigMap",
      text: "apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n",
      error: /apiVersion must be cloud\.svc\.io/,
    },
    {
      reason: "no name",
      text: "apiVersion: cloud.svc.io/v1alpha1\nkind: Network\nmetadata: {}\n",
      error: /metadata\.name is required/,
    },
    {
      reason: "second document broken",
      text: "---\napiVersion: cloud.svc.io/v1alpha1\nkind: Network\nmetadata: {name: a}\n---\n- 1\n",
      error: /document 2\): must be a mapping/,
    },
    { reason: "bad YAML", text: "kind: [\n", error: /a\.yaml \(document 1\)/ },
  ])("$reason", async ({ text, error }) => {
    write(text);
    await expect(loadSamples(dir, KINDS, GROUP)).rejects.toThrow(error);
  });

  it("a missing directory", async () => {
    await expect(loadSamples(join(dir, "nope"), KINDS, GROUP)).rejects.toThrow(
      /cannot read the samples directory \(ENOENT\)/,
    );
  });
});
