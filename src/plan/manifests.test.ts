import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_ALIAS_COUNT, ManifestError, parseManifests, readManifests } from "./manifests.ts";

const net = (name: string) =>
  `apiVersion: cloud.svc.io/v1alpha1\nkind: Network\nmetadata: {name: ${name}}\nspec: {}\n`;
const noStdin = () => Promise.reject(new Error("no stdin"));

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-manifests-"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe("parseManifests", () => {
  it("reads every document, skips empty ones, expands a List, says where each came from", () => {
    const list = JSON.stringify({ kind: "List", items: [{ kind: "A" }, { kind: "B" }] });
    const out = parseManifests(`${net("a")}---\n---\n${list}\n`, "x.yaml");
    expect(out.map((m) => m.source)).toEqual(["x.yaml#1", "x.yaml#3.items[0]", "x.yaml#3.items[1]"]);
  });

  it("refuses what is not YAML objects, naming the document", () => {
    expect(() => parseManifests("a: [", "x.yaml")).toThrow(ManifestError);
    expect(() => parseManifests(`${net("a")}---\n- 1\n`, "x.yaml")).toThrow(
      "-f x.yaml: document 2 is not an object",
    );
    expect(() => parseManifests("kind: List\nitems: [{kind: A}, 1]\n", "x.yaml")).toThrow(
      "-f x.yaml: document 1: items[1] is not an object",
    );
  });

  it("a YAML error is one line: where, and the rule, never the lines of the file (they may hold a secret)", () => {
    const secret = "kind: Secret\nstringData:\n  password: hunter2\n  password: hunter3\n";
    expect(() => parseManifests(secret, "s.yaml")).toThrow(
      /^-f s\.yaml: document 1: Map keys must be unique at line 4, column 3$/,
    );
    expect(() => parseManifests("a: 1\n  b: [\n", "x.yaml")).toThrow(
      /^-f x\.yaml: document 1: [^\n]+ at line 1, column 4$/,
    );
  });

  it("refuses an alias bomb (a billion laughs) in one line, before expanding it", () => {
    const lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    expect(() => parseManifests(`kind: A\n---\n${lines.join("\n")}\n`, "bomb.yaml")).toThrow(
      `-f bomb.yaml: document 2: its aliases expand past ${MAX_ALIAS_COUNT} nodes (a YAML alias bomb?): not read`,
    );
    expect(parseManifests("a: &x {b: 1}\nc: *x\n", "ok.yaml")[0]!.object).toEqual({
      a: { b: 1 },
      c: { b: 1 },
    });
  });
});

describe("readManifests", () => {
  it("a kustomization: its resources (files and directories, recursively), its namespace set on each", async () => {
    const dir = await tree({
      "kustomization.yaml": "resources: [a.yaml, more]\nnamespace: team-a\n",
      "a.yaml": net("a"),
      "ignored.yaml": net("ignored"),
      "more/kustomization.yaml": "resources: [b.yaml]\n",
      "more/b.yaml": net("b"),
    });
    const out = await readManifests(dir, noStdin);
    expect(
      out.map((m) => [m.source, (m.object.metadata as { name: string; namespace: string }).namespace]),
    ).toEqual([
      ["a.yaml#1", "team-a"],
      ["more/b.yaml#1", "team-a"],
    ]);
  });

  it("a plain directory: its manifest files in name order, not recursive", async () => {
    const dir = await tree({
      "b.yaml": net("b"),
      "a.json": JSON.stringify({ kind: "A" }),
      "sub/c.yaml": net("c"),
      "notes.txt": "x",
    });
    expect((await readManifests(dir, noStdin)).map((m) => m.source)).toEqual(["a.json#1", "b.yaml#1"]);
  });

  it("a kustomization using what only kustomize does: an error saying how to pipe kustomize's output in", async () => {
    const dir = await tree({
      "kustomization.yaml": "resources: [a.yaml]\npatches: []\n",
      "a.yaml": net("a"),
    });
    await expect(readManifests(dir, noStdin)).rejects.toThrow(
      `-f ${dir}: kustomization.yaml uses "patches", which plan does not read; run: kubectl kustomize ${dir} | svc-operator plan -f -`,
    );
  });

  it("stdin with -f -, and a path that does not exist named", async () => {
    expect(await readManifests("-", async () => net("s"))).toHaveLength(1);
    await expect(readManifests("/nonexistent/x.yaml", noStdin)).rejects.toThrow(
      new ManifestError("-f /nonexistent/x.yaml: no such file or directory"),
    );
  });

  it("what cannot be read is a ManifestError naming it: a directory where a file goes, a device, resources not a list", async () => {
    const dir = await tree({ "a.yaml": net("a"), "b.yaml/c.yaml": net("c") });
    await expect(readManifests(dir, noStdin)).rejects.toThrow(
      new ManifestError(`-f ${join(dir, "b.yaml")}: is a directory`),
    );
    await expect(readManifests("/dev/null", noStdin)).rejects.toThrow(
      new ManifestError("-f /dev/null: is neither a file nor a directory"),
    );
    const k = await tree({ "kustomization.yaml": "resources: a.yaml\n", "a.yaml": net("a") });
    await expect(readManifests(k, noStdin)).rejects.toThrow(
      new ManifestError(`-f ${k}: kustomization.yaml: resources must be a list`),
    );
  });
});
