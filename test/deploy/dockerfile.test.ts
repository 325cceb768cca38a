import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ignored, parseDockerfile, readDockerignore, type Stage } from "./dockerfile.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const stages = parseDockerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const patterns = readDockerignore(join(ROOT, ".dockerignore"));
const runtime = stages.at(-1)!;
const ops = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);
/** COPY sources from the build context (not --from another stage). */
function contextSources(stage: Stage): string[] {
  return ops(stage, "COPY")
    .filter((a) => !a.startsWith("--from="))
    .flatMap((a) => a.split(" ").slice(0, -1));
}

describe("Dockerfile", () => {
  it("is multi-stage on the Node 24 image", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s.from, s.name).toMatch(/^node:24[-.\w]*@sha256:/);
  });

  it("the final stage installs no package and copies the bundle, not the sources", () => {
    // dist/ is self-contained (scripts/build.ts bundles the dependencies): nothing to install.
    expect(ops(runtime, "RUN")).toEqual([]);
    expect(ops(runtime, "ENV")).toContain("NODE_ENV=production");
    expect(contextSources(runtime)).not.toContain("src");
    expect(ops(runtime, "COPY").filter((a) => a.startsWith("--from="))).toEqual([
      "--from=build /app/dist ./dist",
    ]);
  });

  it("sets malloc so that freed memory does not stay resident: two arenas, a fixed mmap threshold, trimming", () => {
    const env = ops(runtime, "ENV");
    expect(env).toContain("MALLOC_ARENA_MAX=2");
    // glibc fixes the threshold (no longer raised by each large block freed) once it is set.
    expect(env).toContain("MALLOC_MMAP_THRESHOLD_=131072");
    expect(env).toContain("MALLOC_TRIM_THRESHOLD_=131072");
  });

  it("runs as a non-root numeric user, ENTRYPOINT `svc-operator run`", () => {
    const [user] = ops(runtime, "USER");
    expect(user).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    const entrypoint = JSON.parse(ops(runtime, "ENTRYPOINT")[0]!) as string[];
    // node, its own flags (V8's, which NODE_OPTIONS does not take), then the bundle's `run`.
    expect(entrypoint[0]).toBe("node");
    expect(entrypoint.slice(-2)).toEqual(["dist/cli.js", "run"]);
    for (const flag of entrypoint.slice(1, -2)) expect(flag).toMatch(/^--[a-z][a-z0-9-]*(=\S+)?$/);
    // package.json's bin runs the sources on the pinned Node; the image runs their bundle.
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    expect(pkg.bin["svc-operator"]).toBe("src/cli.ts");
    expect(readFileSync(join(ROOT, "scripts", "build.ts"), "utf8")).toContain(
      'entryPoints: [{ in: join(ROOT, "src", "cli.ts"), out: "cli" }]',
    );
  });

  it(".dockerignore keeps node_modules, .git, dist, tests and local state out, and every COPY source in", () => {
    for (const p of [
      "node_modules",
      ".git",
      "dist",
      "test",
      "coverage",
      ".env",
      ".svc-operator",
      "node_modules/x/y.js",
    ])
      expect(ignored(p, patterns), p).toBe(true);
    for (const s of stages)
      for (const src of contextSources(s)) expect(ignored(src, patterns), src).toBe(false);
  });
});

/**
 * Replays the Dockerfile in temporary directories (one per stage, WORKDIR as a subfolder):
 * COPY from the context honours .dockerignore, COPY --from reads the named stage, RUN runs
 * with Node 24 first on PATH. Two steps differ, both documented: the build stage's full
 * `npm ci` links this checkout's node_modules (the same lockfile, already installed), and
 * `npm cache clean` is skipped (it would wipe this machine's cache; it only trims the image).
 */
describe("the image's production output", () => {
  const root = mkdtempSync(join(tmpdir(), "svc-operator-image-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function replay(): string {
    const dirs = new Map<string, { rootfs: string; workdir: string }>();
    let last = "";
    for (const stage of stages) {
      const rootfs = join(root, stage.name);
      let workdir = rootfs;
      const env: Record<string, string> = {};
      for (const { op, args } of stage.instructions) {
        if (op === "WORKDIR") {
          workdir = join(rootfs, args);
          mkdirSync(workdir, { recursive: true });
        } else if (op === "ENV") {
          const [k, v = ""] = args.split("=");
          env[k!] = v;
        } else if (op === "COPY") {
          const parts = args.split(" ");
          const from = parts[0]!.startsWith("--from=") ? parts.shift()!.slice(7) : undefined;
          const dest = join(workdir, parts.pop()!);
          for (const src of parts) {
            const source = from ? join(dirs.get(from)!.rootfs, src) : join(ROOT, src);
            const target = parts.length > 1 || dest.endsWith("/") ? join(dest, src.split("/").at(-1)!) : dest;
            cpSync(source, target, {
              recursive: true,
              filter: (p) => from !== undefined || !ignored(relative(ROOT, p), patterns),
            });
          }
        } else if (op === "RUN") {
          for (const command of args.split(" && ").map((c) => c.trim())) {
            if (command === "npm cache clean --force") continue;
            if (command === "npm ci") {
              symlinkSync(join(ROOT, "node_modules"), join(workdir, "node_modules"), "dir");
              continue;
            }
            const line = command.startsWith("npm ci") ? `${command} --offline --no-audit --no-fund` : command;
            try {
              execFileSync("bash", ["-c", line], {
                cwd: workdir,
                env: {
                  ...process.env,
                  ...env,
                  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
                },
                stdio: "pipe",
              });
            } catch (error) {
              const e = error as { stdout?: Buffer; stderr?: Buffer };
              throw new Error(`${stage.name}: RUN ${line} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
            }
          }
        }
      }
      dirs.set(stage.name, { rootfs, workdir });
      last = workdir;
    }
    return last;
  }

  it("builds, holds no node_modules nor test file, and `--help` runs from it", { timeout: 240_000 }, () => {
    const app = replay();
    expect(existsSync(join(app, "src"))).toBe(false);
    expect(existsSync(join(app, "crds"))).toBe(true);
    expect(existsSync(join(app, "node_modules"))).toBe(false);
    const files = readdirSync(join(app, "dist"), { recursive: true }) as string[];
    expect(files.filter((f) => /\.test\.js$/.test(f))).toEqual([]);
    const help = execFileSync(process.execPath, ["dist/cli.js", "--help"], { cwd: app, encoding: "utf8" });
    for (const command of ["run", "simulator", "devcluster"]) expect(help).toContain(command);
    // As the image runs it: the ENTRYPOINT's node flags (node refuses one it does not know) and ENV.
    const [, ...entrypoint] = JSON.parse(ops(runtime, "ENTRYPOINT")[0]!) as string[];
    const env = Object.fromEntries(ops(runtime, "ENV").map((e) => e.split("=") as [string, string]));
    const runHelp = execFileSync(process.execPath, [...entrypoint, "--help"], {
      cwd: app,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    expect(runHelp).toContain("--leader-elect");
  });
});
