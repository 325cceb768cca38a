import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The standards' rule "no file over 400 lines", held for every TypeScript file of the repo.

const MAX_LINES = 400;

/** Files being cut down right now; the lead empties this list as they land. */
const ALLOWED_OVERSIZE: readonly string[] = [];

const root = new URL("../../", import.meta.url);

/** Tracked and new (not ignored) .ts files, as paths from the repo root. */
function typeScriptFiles(): string[] {
  const out = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "*.ts"],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  const paths = out.split("\0").filter((p) => p !== "" && existsSync(new URL(p, root)));
  return [...new Set(paths)].sort();
}

/** Lines as `wc -l` counts them, plus a last line without a newline. */
function lineCount(path: string): number {
  const text = readFileSync(new URL(path, root), "utf8");
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("file size", () => {
  const files = typeScriptFiles();
  const sizes = new Map(files.map((f) => [f, lineCount(f)]));

  it("lists the repo's TypeScript files", () => {
    expect(files).toContain("test/docs/file-size.test.ts");
    expect(files).toContain("src/cli.ts");
  });

  it(`no .ts file is over ${MAX_LINES} lines`, () => {
    const over = files
      .filter((f) => sizes.get(f)! > MAX_LINES && !ALLOWED_OVERSIZE.includes(f))
      .map((f) => `${f}: ${sizes.get(f)} lines`);
    expect(over, `over ${MAX_LINES} lines (split them into focused modules):\n${over.join("\n")}`).toEqual(
      [],
    );
  });

  it("the allowlist names only files still over the limit", () => {
    const stale = ALLOWED_OVERSIZE.filter((f) => (sizes.get(f) ?? 0) <= MAX_LINES).map(
      (f) => `${f}: ${sizes.has(f) ? `${sizes.get(f)} lines` : "gone"}`,
    );
    expect(stale, `remove from ALLOWED_OVERSIZE:\n${stale.join("\n")}`).toEqual([]);
  });
});
