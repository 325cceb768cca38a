import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shellBlocks } from "../docs/markdown.ts";
import { onPath } from "../docs/shell.ts";
import { type Manifest, podContainers, render } from "./render.ts";

/** Installing with kubectl alone: an overlay sets the image, `kubectl apply -k` applies it. */

const ROOT = join(import.meta.dirname, "..", "..");
const OVERLAY = "deploy/overlays/example";
const IMAGE = "registry.example.com/svc-operator:0.1.0";
const INSTALL_DOCS = ["README.md", "docs/install.md"];

const id = (m: Manifest) => `${m.kind}/${m.metadata.namespace ?? ""}/${m.metadata.name}`;
const operatorImage = (list: Manifest[]) =>
  list.filter((m) => m.kind === "Deployment").flatMap((m) => podContainers(m).map((c) => c.image));
/** Every command of the page's shell blocks. */
const commands = (file: string) =>
  shellBlocks(file, readFileSync(join(ROOT, file), "utf8")).flatMap((b) => b.commands.map((c) => c.text));

describe(`the example overlay (${OVERLAY})`, () => {
  const base = render(join(ROOT, "deploy"));
  const overlay = render(join(ROOT, OVERLAY));

  it("is the whole base, with the operator's image replaced by its `images:` entry", () => {
    expect(overlay.map(id).sort()).toEqual(base.map(id).sort());
    expect(operatorImage(base)).toEqual(["svc-operator:0.1.0"]);
    expect(operatorImage(overlay)).toEqual([IMAGE]);
    const unchanged = (list: Manifest[]) => list.filter((m) => m.kind !== "Deployment");
    expect(unchanged(overlay)).toEqual(unchanged(base));
  });

  it("the renderer refuses a base that contains its overlay, as kustomize does", () => {
    expect(() => render(join(import.meta.dirname, "fixtures", "cycle", "overlay"))).toThrow(/cycle/);
  });

  it.each(INSTALL_DOCS)(
    "%s installs with `kubectl apply -k` of the overlay and needs no kustomize binary",
    (file) => {
      const all = commands(file);
      expect(
        all.some((c) => c.includes(`kubectl apply -k ${OVERLAY}`)),
        `${file} applies ${OVERLAY}`,
      ).toBe(true);
      for (const c of all)
        expect(c, `${file} runs a kustomize binary`).not.toMatch(/(^|[|&;]\s*)kustomize\s/m);
      expect(readFileSync(join(ROOT, file), "utf8")).not.toMatch(/kustomize edit/);
    },
  );

  const kubectl = onPath("kubectl");
  it.skipIf(!kubectl)(
    `kubectl kustomize builds it with the image set${kubectl ? "" : " (skipped: kubectl not on PATH)"}`,
    () => {
      const out = execFileSync(kubectl!, ["kustomize", join(ROOT, OVERLAY)], { encoding: "utf8" });
      expect(out).toContain(`image: ${IMAGE}`);
    },
  );
});
