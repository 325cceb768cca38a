import { link, lstat, mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDirectory, RefusedWrite, writeDirectory } from "./directory.ts";
import { HEADER } from "./write.ts";

const tmp = () => mkdtemp(join(tmpdir(), "svc-directory-"));
const generated = (what: string) => `${HEADER} ${what}\n${what}: 1\n`;
const byKind = new Map([
  ["kustomization.yaml", generated("kustomization")],
  ["networks.yaml", generated("networks")],
]);
const byObject = new Map([
  ["kustomization.yaml", generated("kustomization")],
  ["networks/a.yaml", generated("a")],
  ["networks/b.yaml", generated("b")],
]);

/** The directory's entries, recursively, with their contents: to see that nothing changed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    out[path] = e.isSymbolicLink() ? "link" : e.isFile() ? await readFile(path, "utf8") : "dir";
  }
  return out;
}

describe("writeDirectory", () => {
  it("replaces what an earlier export wrote, removes what it wrote and no longer does, leaves other files alone", async () => {
    const dir = await tmp();
    await writeDirectory(dir, byObject);
    await writeFile(join(dir, "networks", "mine.yaml"), "kind: Mine\n");
    await writeDirectory(dir, byKind);
    await expect(readFile(join(dir, "networks", "a.yaml"), "utf8")).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dir, "networks", "mine.yaml"), "utf8")).toBe("kind: Mine\n");
    expect(await readFile(join(dir, "networks.yaml"), "utf8")).toBe(generated("networks"));
    expect((await readdir(dir)).sort()).toEqual(["kustomization.yaml", "networks", "networks.yaml"]);
  });

  it("refuses a file it would write but did not, naming it and --force, and writes nothing; --force overwrites it", async () => {
    const dir = await tmp();
    await writeFile(join(dir, "networks.yaml"), "kind: Mine\n");
    const before = await snapshot(dir);
    const refused = writeDirectory(dir, byKind);
    await expect(refused).rejects.toThrow(RefusedWrite);
    await expect(refused).rejects.toThrow(
      `--out ${dir}: networks.yaml was not written by export (its first line is not "${HEADER}"): ` +
        "move it away, or give --force to overwrite it; nothing was written",
    );
    expect(await snapshot(dir)).toEqual(before);
    await writeDirectory(dir, byKind, { force: true });
    expect(await readFile(join(dir, "networks.yaml"), "utf8")).toBe(generated("networks"));
  });

  it("refuses a symbolic link to a file outside the directory, even with --force: the file outside is unchanged", async () => {
    const dir = await tmp();
    const outside = join(await tmp(), "kustomization.yaml");
    await writeFile(outside, generated("not yours to replace"));
    await symlink(outside, join(dir, "kustomization.yaml"));
    for (const force of [false, true])
      await expect(writeDirectory(dir, byKind, { force })).rejects.toThrow(
        `--out ${dir}: kustomization.yaml is a symbolic link, which export does not follow: remove it, or choose another --out; nothing was written`,
      );
    expect(await readFile(outside, "utf8")).toBe(generated("not yours to replace"));
    expect(await readdir(dir)).toEqual(["kustomization.yaml"]);
    expect((await lstat(join(dir, "kustomization.yaml"))).isSymbolicLink()).toBe(true);
  });

  it("refuses a directory on the way that is a symbolic link: nothing is written through it", async () => {
    const dir = await tmp();
    const outside = await tmp();
    await symlink(outside, join(dir, "networks"));
    await expect(writeDirectory(dir, byObject)).rejects.toThrow(
      `--out ${dir}: networks is a symbolic link, which export does not follow: remove it, or choose another --out; nothing was written`,
    );
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(dir)).toEqual(["networks"]);
  });

  it("counts the other refusals, and refuses what is neither a file nor a directory where one is wanted", async () => {
    const dir = await tmp();
    await writeFile(join(dir, "networks"), "a file where a directory goes\n");
    await mkdir(join(dir, "kustomization.yaml"));
    await expect(writeDirectory(dir, byObject)).rejects.toThrow(
      `--out ${dir}: kustomization.yaml is not a regular file: move it away, or choose another --out; 1 more refused; nothing was written`,
    );
    await expect(writeDirectory(join(dir, "networks"), byKind)).rejects.toThrow(
      `--out ${join(dir, "networks")}: is not a directory`,
    );
  });

  it("replaces a file as a whole: a hard link to it outside keeps its content, the file keeps its mode", async () => {
    const dir = await tmp();
    await writeDirectory(dir, byKind);
    const outside = join(await tmp(), "linked.yaml");
    await link(join(dir, "networks.yaml"), outside);
    await writeFile(join(dir, "kustomization.yaml"), generated("kustomization"), { mode: 0o600 });
    const { mode } = await stat(join(dir, "kustomization.yaml"));
    await writeDirectory(dir, new Map([...byKind, ["networks.yaml", generated("other networks")]]));
    expect(await readFile(outside, "utf8")).toBe(generated("networks"));
    expect(await readFile(join(dir, "networks.yaml"), "utf8")).toBe(generated("other networks"));
    expect((await stat(join(dir, "kustomization.yaml"))).mode).toBe(mode);
    expect((await readdir(dir)).sort()).toEqual(["kustomization.yaml", "networks.yaml"]);
  });

  it("makes a directory that does not exist yet, and checks without writing", async () => {
    const dir = join(await tmp(), "new", "out");
    await checkDirectory(dir, byObject.keys());
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
    expect(await writeDirectory(dir, byObject)).toEqual([...byObject.keys()]);
    expect(await readFile(join(dir, "networks", "b.yaml"), "utf8")).toBe(generated("b"));
  });
});
