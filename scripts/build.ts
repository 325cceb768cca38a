// `npm run build`: the production build in dist/, what the container image runs. One bundle
// (dist/cli.js plus chunks) made with esbuild, its dependencies included: client-node's
// generated API code (~60 MB on disk) is tree-shaken to what the operator uses, which
// takes about 60 MB off the operator's resident memory compared with loading the packages,
// and the image needs no node_modules. Each subcommand is a chunk of its own, loaded only
// when it runs (src/cli/commands.ts), so `run` never loads the simulator or the devcluster.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";

export const ROOT = join(import.meta.dirname, "..");
export const DIST = join(ROOT, "dist");

/** CommonJS dependencies inside an ES module bundle still call require() for Node's modules. */
const REQUIRE_SHIM =
  "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);";

export async function buildBundle(outdir = DIST): Promise<Metafile> {
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: [{ in: join(ROOT, "src", "cli.ts"), out: "cli" }],
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node24",
    sourcemap: true,
    // Licences of the bundled packages stay with the code, in one file beside it.
    legalComments: "linked",
    banner: { js: REQUIRE_SHIM },
    metafile: true,
    logLevel: "warning",
  });
  return result.metafile;
}

if (import.meta.main) {
  const metafile = await buildBundle();
  const bytes = Object.values(metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  const files = Object.keys(metafile.outputs).filter((f) => !f.endsWith(".map"));
  process.stdout.write(
    `built ${files.length} files in dist/ (${(bytes / 1e6).toFixed(1)} MB with source maps)\n`,
  );
}
