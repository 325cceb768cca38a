// `npm run build`: the production build in dist/, what the container image runs. One bundle
// (dist/cli.js plus chunks) made with esbuild, its dependencies included, so the image needs no
// node_modules. What `run` loads is what its idle memory follows (docs/operator.md#memory,
// test/deploy/bundle.test.ts): none of client-node's generated code (see leanClientNode), module
// text without comments (ASCII), and each subcommand a chunk of its own, loaded only when it
// runs (src/commands.ts), so `run` never loads the simulator or the devcluster.
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";

export const ROOT = join(import.meta.dirname, "..");
export const DIST = join(ROOT, "dist");

/** CommonJS dependencies inside an ES module bundle still call require() for Node's modules. */
const REQUIRE_SHIM =
  "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);";

/**
 * client-node's generated code (dist/gen: a class per API group and per model, ~4 MB of source)
 * only declares classes, but its package does not say so ("sideEffects"), so esbuild keeps every
 * module an index re-exports: marked here, a module none of whose exports `run` uses is left out.
 * The operator imports client-node's modules, not its index, and calls the apiserver over
 * RawKube, not through generated clients. One reference remains: ListWatch (the informers)
 * serializes its label selector with the ObjectSerializer, which knows every model class; for a
 * string that is the string itself, so ListWatch gets a serializer that does only that. Its Watch
 * (dist/watch.js, which only declares a class) is left out too: the informers watch over KubeWatch.
 */
export const leanClientNode: Plugin = {
  name: "lean-client-node",
  setup(b) {
    b.onResolve({ filter: /^\.\/serializer\.js$/ }, (args) =>
      args.importer.endsWith(join("@kubernetes", "client-node", "dist", "cache.js"))
        ? { path: "client-node-string-serializer", namespace: "lean-client-node" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lean-client-node" }, () => ({
      contents: STRING_SERIALIZER,
      loader: "js",
    }));
    b.onResolve({ filter: /./ }, async (args) => {
      if (args.pluginData === "resolving" || !args.importer.includes(CLIENT_NODE_DIST)) return undefined;
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "resolving",
      });
      const free = [join(CLIENT_NODE_DIST, "gen"), join(CLIENT_NODE_DIST, "watch.js")];
      if (resolved.errors.length > 0 || !free.some((p) => resolved.path.includes(p))) return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

const CLIENT_NODE_DIST = join("@kubernetes", "client-node", "dist");

/** What ListWatch asks of the ObjectSerializer: serialize(labelSelector or fieldSelector, "string"). */
const STRING_SERIALIZER = `export const ObjectSerializer = {
  serialize(data, type) {
    if (type !== "string") throw new Error("client-node's ObjectSerializer is left out of this bundle (scripts/build.ts)");
    return data;
  },
};`;

/**
 * undici's index (CommonJS, so esbuild keeps all of it) loads every part of undici: fetch and its
 * web streams, WebSocket, EventSource, the mocks, the cache stores, and two HTTP parsers. What the
 * bundle uses is taken from undici's own modules: Agent and ProxyAgent, FormData (multipart
 * uploads), parseCookie, and the dispatcher's `request` that the index mixes into Dispatcher.
 * `fetch`, which client-node's generated clients and Watch use and the operator does not (it
 * reads the apiserver over RawKube and KubeWatch), is a chunk of its own, loaded on first call.
 */
const LEAN_UNDICI = `import Dispatcher from "undici/lib/dispatcher/dispatcher.js";
import api from "undici/lib/api/index.js";
Object.assign(Dispatcher.prototype, api);
export { default as Agent } from "undici/lib/dispatcher/agent.js";
export { default as ProxyAgent } from "undici/lib/dispatcher/proxy-agent.js";
export { FormData } from "undici/lib/web/fetch/formdata.js";
export { parseCookie } from "undici/lib/web/cookies/index.js";
export async function fetch(...args) {
  return (await import("undici/lib/web/fetch/index.js")).fetch(...args);
}`;

/**
 * undici's HTTP/1 client requires its HTTP/2 one when it loads, and that requires node:http2 (4 MB
 * of RSS in a process that never speaks HTTP/2: the operator leaves undici's allowH2 off). Here
 * it is required on the first HTTP/2 connection instead. The build fails if undici's line changes.
 */
const EAGER_H2 = "const connectH2 = require('./client-h2.js')";
const LAZY_H2 =
  "let clientH2; const connectH2 = (client, socket) => (clientH2 ??= require('./client-h2.js'))(client, socket)";

export const leanUndici: Plugin = {
  name: "lean-undici",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: "undici", namespace: "lean-undici" }));
    b.onLoad({ filter: /.*/, namespace: "lean-undici" }, () => ({
      contents: LEAN_UNDICI,
      loader: "js",
      resolveDir: ROOT,
    }));
    b.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(EAGER_H2))
        throw new Error(`scripts/build.ts: ${args.path} no longer has: ${EAGER_H2}`);
      return { contents: source.replace(EAGER_H2, LAZY_H2), loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * Node's modules whose exports include getters that load code when read: node:http's WebSocket,
 * CloseEvent and MessageEvent load Node's own copy of undici (0.7 MB of code), node:tls's
 * rootCertificates parses every root certificate, node:crypto's webcrypto sets up Web Crypto. An
 * ES module import reads every export (to build the module's namespace), so each of these costs
 * memory for the life of the process although the operator uses none of them (6 MB of RSS).
 * The bundle takes them with require(), as CommonJS code does, which reads only what it uses.
 */
const LAZY_GETTER_BUILTINS = ["http", "tls", "crypto"];

export const builtinsByRequire: Plugin = {
  name: "builtins-by-require",
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_GETTER_BUILTINS.join("|")})$`);
    b.onResolve({ filter }, (args) =>
      args.kind === "import-statement" || args.kind === "dynamic-import"
        ? { path: args.path.replace(/^node:/, ""), namespace: "builtin-by-require" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin-by-require" }, (args) => ({
      contents: requiredBuiltin(args.path),
      loader: "js",
    }));
  },
};

/** A module exporting node:<name> as require() gives it: the default, and each plain value by name. */
function requiredBuiltin(name: string): string {
  const mod = createRequire(import.meta.url)(`node:${name}`) as object;
  const plain = Object.getOwnPropertyNames(mod).filter(
    (k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default" && !Object.getOwnPropertyDescriptor(mod, k)?.get,
  );
  return [
    'import { createRequire } from "node:module";',
    `const m = createRequire(import.meta.url)("node:${name}");`,
    "export default m;",
    `export const { ${plain.join(", ")} } = m;`,
  ].join("\n");
}

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
    // V8 keeps the text of every module it loads, for as long as the process runs: without
    // comments and indentation the text `run` loads is half as long, and all ASCII (the comments
    // of some dependencies are not), which V8 stores in one byte per character instead of two.
    // Names are kept, so stack traces stay readable (and the source maps map them back).
    minifyWhitespace: true,
    // Licences of the bundled packages stay with the code, in one file beside it.
    legalComments: "linked",
    banner: { js: REQUIRE_SHIM },
    metafile: true,
    plugins: [leanClientNode, leanUndici, builtinsByRequire],
    // undici's own bundles define it: its HTTP/1 client then leaves out Milo, an experimental
    // second parser (WebAssembly, 150 KB of module text) used only when asked for.
    define: { esbuildDetection: "true" },
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
