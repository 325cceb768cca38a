import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/commands.ts";
import { type Command, parseFlags } from "../../src/lib/cli/index.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const command = (name: string): Command => commands.find((c) => c.name === name)!;

/** Every `svc-operator export|plan ...` command of a page's code blocks, as argv after the subcommand. */
function commandsIn(text: string): { name: "export" | "plan"; argv: string[] }[] {
  const out: { name: "export" | "plan"; argv: string[] }[] = [];
  for (const block of text.matchAll(/```[a-z]*[^\n]*\n([\s\S]*?)```/g))
    for (const m of block[1]!
      .replace(/\\\n\s*/g, " ")
      .matchAll(/(?:^|npm exec -- |\| )svc-operator (export|plan)((?:[ \t]+[^\s|#]+)*)/gm))
      out.push({ name: m[1] as "export" | "plan", argv: m[2]!.trim().split(/\s+/).filter(Boolean) });
  return out;
}

/** The flags of a page's flag table (`| flag | meaning |`). */
function tableFlags(text: string, heading: string): string[] {
  const at = text.indexOf(heading);
  const lines = text.slice(at).split("\n");
  const start = lines.findIndex((l) => l.startsWith("| flag |"));
  const flags: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    for (const [, f] of line.split("|")[1]!.matchAll(/`(?:-[a-z], )?(--[a-z-]+)/g)) flags.push(f!);
  }
  return flags.sort();
}

describe("the brownfield and CI pages", () => {
  it.each(["docs/brownfield.md", "docs/plan-in-ci.md"])(
    "%s: every export and plan command parses",
    (file) => {
      const commands = commandsIn(read(file));
      expect(commands.length).toBeGreaterThan(0);
      for (const c of commands)
        expect(() => parseFlags(command(c.name), c.argv), c.argv.join(" ")).not.toThrow();
    },
  );

  it("their flag tables list exactly the commands' flags", () => {
    const flags = (c: Command) =>
      Object.keys(c.flags)
        .map((f) => `--${f}`)
        .sort();
    expect(tableFlags(read("docs/brownfield.md"), "## 1. Export")).toEqual(flags(command("export")));
    expect(tableFlags(read("docs/plan-in-ci.md"), "## Where it reads from")).toEqual(flags(command("plan")));
  });
});
