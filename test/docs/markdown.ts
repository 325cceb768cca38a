/**
 * The shell commands of a markdown page, as a reader would type them.
 *
 * Conventions (the docs follow them; `commands.test.ts` runs what they describe):
 * - A fenced block whose info string starts with `sh`, `bash` or `shell` holds commands, one
 *   per line; `\` continues a line, so does a trailing `|`, `&&` or `||`, and a heredoc
 *   (`<<'EOF'`) runs to its terminator. Lines starting with `#` are comments.
 * - Words after the language in the info string mark the block (unknown words are an error,
 *   so a typo cannot hide a command):
 *     `real-cluster`  needs a real Kubernetes cluster (or the service): not run;
 *     `setup`         `npm ci`, `npm test`, `npm run dev [-- flags]`: what the test itself
 *                     stands for (it starts the playground and runs inside `npm test`);
 *                     checked, not run;
 *     `fails`         every command of the block must exit non-zero (documented errors).
 * - A ```text block right after a command block (only blank lines between) is the
 *   documented output of the block's last command; see `output.ts` for how it is matched.
 *   A fence with no info string is an illustration and is not checked.
 */

export const MARKS = ["real-cluster", "setup", "fails"] as const;
export type Mark = (typeof MARKS)[number];

const SHELLS = new Set(["sh", "bash", "shell"]);

export interface DocCommand {
  /** 1-based line in the page where the command starts. */
  line: number;
  text: string;
}

export interface ShellBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  marks: Set<Mark>;
  commands: DocCommand[];
  /** The ```text block that follows, if any. */
  output?: { line: number; text: string };
}

interface Fence {
  line: number;
  info: string;
  body: string[];
}

/** Every fenced block of the page with the level-2 heading it sits under. */
function fences(markdown: string): (Fence & { section: string })[] {
  const lines = markdown.split("\n");
  const out: (Fence & { section: string })[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+)$/.exec(lines[i]!);
    if (heading) section = heading[1]!.trim();
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, marker, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim().startsWith(marker!) && line.trim().replace(/[`~]/g, "") === "") break;
      body.push(line.startsWith(indent!) ? line.slice(indent!.length) : line.trimStart());
    }
    out.push({ line: i + 1, info: info!.trim(), body, section });
    i = j;
  }
  return out;
}

/** Joins continuation lines and heredocs into whole commands. */
export function splitCommands(body: string[], firstLine: number): DocCommand[] {
  const out: DocCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    const start = body[i]!;
    if (start.trim() === "" || start.trim().startsWith("#")) continue;
    const line = firstLine + i;
    let text = start;
    const continues = (l: string) => /(\\|\||&&)\s*$/.test(l.replace(/\s+#.*$/, ""));
    while (continues(text.split("\n").at(-1)!) && i + 1 < body.length) text += `\n${body[++i]}`;
    const heredoc = /<<(-?)\s*(['"]?)([\w-]+)\2/.exec(text);
    if (heredoc) {
      const strip = heredoc[1] === "-";
      while (i + 1 < body.length) {
        const next = body[++i]!;
        text += `\n${next}`;
        if ((strip ? next.replace(/^\t+/, "") : next) === heredoc[3]) break;
      }
    }
    out.push({ line, text });
  }
  return out;
}

/**
 * The shell blocks of a page; with `sections`, only those under the named level-2 headings
 * (each must exist, so a renamed heading cannot silently drop its commands).
 */
export function shellBlocks(file: string, markdown: string, sections?: string[]): ShellBlock[] {
  const all = fences(markdown);
  const headings = new Set([...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim()));
  for (const s of sections ?? []) if (!headings.has(s)) throw new Error(`${file}: no section "## ${s}"`);
  const out: ShellBlock[] = [];
  all.forEach((fence, index) => {
    const [lang, ...words] = fence.info.split(/\s+/);
    if (!SHELLS.has(lang ?? "")) return;
    if (sections && !sections.includes(fence.section)) return;
    for (const w of words)
      if (!(MARKS as readonly string[]).includes(w))
        throw new Error(`${file}:${fence.line}: unknown mark "${w}" (known: ${MARKS.join(", ")})`);
    const block: ShellBlock = {
      file,
      line: fence.line,
      marks: new Set(words as Mark[]),
      commands: splitCommands(fence.body, fence.line + 1),
    };
    const next = all[index + 1];
    if (next?.info === "text" && onlyBlankBetween(markdown, fence, next))
      block.output = { line: next.line, text: next.body.join("\n") };
    out.push(block);
  });
  return out;
}

/**
 * The sample outputs of a page: every ```text block and every fence with no info string (an
 * illustration), with its 1-based line; with `sections`, only those under the named headings.
 */
export function outputBlocks(markdown: string, sections?: string[]): { line: number; text: string }[] {
  return fences(markdown)
    .filter((f) => (f.info === "text" || f.info === "") && (!sections || sections.includes(f.section)))
    .map((f) => ({ line: f.line, text: f.body.join("\n") }));
}

function onlyBlankBetween(markdown: string, a: Fence, b: Fence): boolean {
  const lines = markdown.split("\n");
  const end = a.line + a.body.length; // index of the closing fence (0-based: a.line + body)
  return lines.slice(end + 1, b.line - 1).every((l) => l.trim() === "");
}
