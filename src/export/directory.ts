import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { HEADER } from "./write.ts";

/** A file of `--out` that export will not write: the message names it and the rule. */
export class RefusedWrite extends Error {
  override name = "RefusedWrite";
}

export interface WriteOptions {
  /** Overwrite regular files export did not write (never a symbolic link, never a directory). */
  force?: boolean;
}

const lstatOrNone = (path: string) =>
  lstat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined;
    throw e;
  });

/** Whether a regular file starts with HEADER: read with O_NOFOLLOW, only the header's length. */
async function generated(path: string): Promise<boolean> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const head = Buffer.alloc(Buffer.byteLength(HEADER));
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString("utf8") === HEADER;
  } finally {
    await file.close();
  }
}

/** Why a path of `--out` may not be written (undefined: it may), from lstat. */
function refusal(rel: string, info: Stats, directory: boolean): string | undefined {
  if (info.isSymbolicLink())
    return `${rel} is a symbolic link, which export does not follow: remove it, or choose another --out`;
  if (directory && !info.isDirectory())
    return `${rel} is not a directory: move it away, or choose another --out`;
  if (!directory && !info.isFile())
    return `${rel} is not a regular file: move it away, or choose another --out`;
  return undefined;
}

/** Every regular `.yaml` file under `dir` (relative paths); symbolic links are neither read nor followed. */
async function yamlFiles(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) found.push(...(await yamlFiles(dir, rel)));
    else if (e.isFile() && e.name.endsWith(".yaml")) found.push(rel);
  }
  return found;
}

/**
 * Checks every path export would write under `dir`, before any is written: no symbolic link on
 * the way (its directories or the file), nothing but directories and regular files, and a file
 * that exists must be one export wrote (HEADER) unless `force`. `dir` itself is the user's to
 * choose, a link or not. Throws RefusedWrite naming the first path refused; else resolves with
 * the wanted files that exist, by relative path, with their permission bits (kept on rewrite).
 */
export async function checkDirectory(
  dir: string,
  paths: Iterable<string>,
  options: WriteOptions = {},
): Promise<Map<string, number>> {
  const modes = new Map<string, number>();
  const info = await stat(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined;
    throw e;
  });
  if (!info) return modes;
  if (!info.isDirectory()) throw new RefusedWrite(`--out ${dir}: is not a directory`);
  const refused: string[] = [];
  /** Directories on the way, checked: whether the path may go on through them. */
  const through = new Map<string, boolean>();
  for (const path of paths) {
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const rel = parts.slice(0, i).join("/");
      const file = i === parts.length;
      if (!file && through.has(rel)) {
        if (through.get(rel)) continue;
        break;
      }
      const entry = await lstatOrNone(join(dir, rel));
      const why = entry && refusal(rel, entry, !file);
      if (!file) through.set(rel, entry !== undefined && why === undefined);
      if (!entry) break;
      if (why) {
        refused.push(why);
        break;
      }
      if (!file) continue;
      if (!options.force && !(await generated(join(dir, rel))))
        refused.push(
          `${rel} was not written by export (its first line is not "${HEADER}"): ` +
            "move it away, or give --force to overwrite it",
        );
      else modes.set(rel, entry.mode & 0o7777);
    }
  }
  if (refused.length > 0) {
    const more = refused.length > 1 ? `; ${refused.length - 1} more refused` : "";
    throw new RefusedWrite(`--out ${dir}: ${refused[0]}${more}; nothing was written`);
  }
  return modes;
}

/** The files an earlier export wrote under `dir` that this one does not (`wanted`). */
async function staleIn(dir: string, wanted: Map<string, string>): Promise<string[]> {
  const stale: string[] = [];
  for (const rel of await yamlFiles(dir))
    if (!wanted.has(rel) && (await generated(join(dir, rel)))) stale.push(rel);
  return stale;
}

/** Makes the directories of `rel` under `dir`, refusing one that is (now) a link or not a directory. */
async function makeParents(dir: string, rel: string): Promise<void> {
  const parts = rel.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join("/");
    await mkdir(join(dir, sub)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "EEXIST") throw e;
    });
    const why = refusal(sub, await lstat(join(dir, sub)), true);
    if (why) throw new RefusedWrite(`--out ${dir}: ${why}`);
  }
}

/**
 * Writes one file as a whole: a new temporary file beside it (O_CREAT | O_EXCL | O_NOFOLLOW), then
 * renamed over the target. A hard link to the old file keeps its content; a target that became a
 * symbolic link since the check is refused.
 */
async function replaceFile(dir: string, rel: string, text: string, mode?: number): Promise<void> {
  const target = join(dir, rel);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  // A new file as writeFile makes one (0o666 less the umask); a replaced one keeps its mode.
  const file = await open(temp, flags, 0o666);
  try {
    try {
      await file.writeFile(text);
      if (mode !== undefined) await file.chmod(mode);
    } finally {
      await file.close();
    }
    const now = await lstatOrNone(target);
    const why = now && refusal(rel, now, false);
    if (why) throw new RefusedWrite(`--out ${dir}: ${why}`);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Writes the files (relative path -> text) under `dir`, and removes the ones an earlier export
 * wrote that this one does not (objects gone from the account, another layout). Everything is
 * checked first (checkDirectory): a refused run writes nothing. Files it did not write are never
 * touched, but with `force` a wanted path's own file is replaced.
 */
export async function writeDirectory(
  dir: string,
  files: Map<string, string>,
  options: WriteOptions = {},
): Promise<string[]> {
  const modes = await checkDirectory(dir, files.keys(), options);
  await mkdir(dir, { recursive: true });
  const stale = await staleIn(dir, files);
  for (const [rel, text] of files) {
    await makeParents(dir, rel);
    await replaceFile(dir, rel, text, modes.get(rel));
  }
  for (const rel of stale) await unlink(join(dir, rel));
  return [...files.keys()];
}
