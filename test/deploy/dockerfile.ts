import { readFileSync } from "node:fs";
import { matchesGlob } from "node:path";

/** One Dockerfile instruction: `op` upper-cased, `args` the rest of the (joined) line. */
export interface Instruction {
  op: string;
  args: string;
}

export interface Stage {
  from: string;
  name: string;
  instructions: Instruction[];
}

/** Parses a Dockerfile into stages (comments dropped, `\` continuations joined). */
export function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  const stages: Stage[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [, op = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = op.toUpperCase();
    if (upper === "FROM") {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!m) throw new Error(`bad FROM: ${line}`);
      stages.push({ from: m[1]!, name: m[2] ?? String(stages.length), instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${upper} before FROM`);
    stage.instructions.push({ op: upper, args: args.replace(/\s+/g, " ") });
  }
  return stages;
}

/** .dockerignore patterns (comments and blanks dropped). */
export function readDockerignore(file: string): string[] {
  return readFileSync(file, "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** Whether a context path (posix, relative) is excluded: a pattern matches it or one of its parents. */
export function ignored(path: string, patterns: string[]): boolean {
  let excluded = false;
  for (const raw of patterns) {
    const negate = raw.startsWith("!");
    const pattern = (negate ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, "");
    const parts = path.split("/");
    const hit = parts.some((_, i) => {
      const prefix = parts.slice(0, i + 1).join("/");
      return prefix === pattern || matchesGlob(prefix, pattern);
    });
    if (hit) excluded = !negate;
  }
  return excluded;
}
