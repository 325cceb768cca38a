// What the image's `run` loads (scripts/build.ts): V8 keeps the text of every module it loads and
// the classes their top-level code declares for the life of the process, so the operator's idle
// memory follows this set of chunks (bench/memory.ts measures it).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../../scripts/build.ts";

/** The chunks cli.js loads before it runs a command (static imports, transitively). */
function loadedAtStart(meta: Metafile): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of meta.outputs[file]!.imports)
      if (i.kind === "import-statement" && meta.outputs[i.path]) visit(i.path);
  };
  visit(Object.keys(meta.outputs).find((f) => f.endsWith("/cli.js"))!);
  return [...seen];
}

describe("the bundle `run` loads", () => {
  let dir: string;
  let meta: Metafile;
  let loaded: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "bundle-"));
    meta = await buildBundle(join(dir, "dist"));
    loaded = loadedAtStart(meta);
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("holds none of client-node's generated API clients and models, nor its index", () => {
    const inputs = loaded.flatMap((f) => Object.keys(meta.outputs[f]!.inputs));
    expect(inputs.some((i) => i.includes("@kubernetes/client-node/dist/config.js"))).toBe(true);
    expect(
      inputs.filter((i) => /@kubernetes\/client-node\/dist\/(gen\/(apis|models|types)\/|index\.js)/.test(i)),
    ).toEqual([]);
  });

  it("holds undici's dispatchers, not its index: no fetch, WebSocket, EventSource, mocks, caches or Milo", () => {
    const inputs = loaded.flatMap((f) => Object.keys(meta.outputs[f]!.inputs));
    expect(inputs.some((i) => i.endsWith("undici/lib/dispatcher/agent.js"))).toBe(true);
    expect(
      inputs.filter((i) =>
        /undici\/(index\.js|lib\/(web\/(fetch\/index|websocket|eventsource|cache)|mock|cache|milo)\/?)/.test(
          i,
        ),
      ),
    ).toEqual([]);
    // The informers watch over KubeWatch (RawKube), not client-node's fetch-based Watch.
    expect(inputs.filter((i) => i.endsWith("@kubernetes/client-node/dist/watch.js"))).toEqual([]);
  });

  it("holds no code of the simulator, the devcluster or the dev loop beyond their flags", () => {
    // Their command definitions (flags, help) and the devcluster's --deny parser with its errors.
    const flags = /\/(command|names|deny|errors)\.ts$/;
    const heavy = loaded.flatMap((f) =>
      Object.keys(meta.outputs[f]!.inputs).filter(
        (i) => /^src\/(simulator|devcluster|dev)\//.test(i) && !flags.test(i),
      ),
    );
    expect(heavy).toEqual([]);
  });

  it("requires node:http, node:tls and node:crypto rather than importing them (an import reads their lazy getters)", () => {
    const imported = loaded.flatMap((f) =>
      meta.outputs[f]!.imports.filter(
        (i) => i.kind === "import-statement" && /^(node:)?(http|tls|crypto)$/.test(i.path),
      ),
    );
    expect(imported).toEqual([]);
  });

  it("is ASCII, which V8 keeps in one byte per character (two for any other text)", async () => {
    for (const file of loaded) {
      const bytes = await readFile(file);
      expect(
        bytes.findIndex((b) => b > 0x7f),
        file,
      ).toBe(-1);
    }
  });
});
