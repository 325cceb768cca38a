// The import rules of the code's layout (docs/architecture.md), checked by `npm run deps` (part
// of `npm test`): a broken rule names the import that breaks it. dependency-cruiser reads the
// TypeScript through swc (the project's TypeScript 7 has no compiler API), type-only imports too.

/** The runtime's packages, lowest first: each may import only those before it (and lib/, api/). */
const LAYERS = [
  "sdk",
  "telemetry",
  ["config", "client"],
  ["cache", "indexes", "audit"],
  "reconcile",
  "accounts",
  "manager",
];
/** Packages outside the runtime with a face (index.ts). */
const FACED = [
  "lib",
  "lib/cli",
  "lib/http",
  "inventory",
  "run",
  "admission",
  "service-model",
  "control-plane",
];
const TEST = "\\.test\\.ts$|\\.testing\\.ts$|/testing/";
const OPERATOR = "^src/(api|runtime|kinds|plan|export|trace|inventory|run)/";
const STAND_INS = "^src/(simulator|devcluster|control-plane)/";

function layerRules() {
  const rules = [];
  LAYERS.forEach((layer, i) => {
    const own = [layer].flat();
    const above = LAYERS.slice(i + 1).flat();
    const siblings = own.length > 1 ? own : [];
    for (const pkg of own) {
      const forbidden = [...above, ...siblings.filter((s) => s !== pkg), "crd", "testing"];
      rules.push({
        name: `runtime-${pkg}-layer`,
        comment: `runtime/${pkg}/ imports no package above it (${forbidden.join(", ")}): they import it`,
        severity: "error",
        from: { path: `^src/runtime/${pkg}/`, pathNot: TEST },
        to: { path: `^src/runtime/(${forbidden.join("|")})/` },
      });
    }
  });
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no import circles anywhere under src/, type-only imports included",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "stand-ins-apart-from-the-operator",
      comment:
        "the simulator and the devcluster import nothing of the operator's side: shared code lives in neutral libraries",
      severity: "error",
      from: { path: STAND_INS, pathNot: "\\.test\\.ts$" },
      to: { path: OPERATOR },
    },
    {
      name: "operator-apart-from-the-stand-ins",
      comment:
        "the operator's side imports nothing of the simulator or the devcluster (only src/dev and src/commands.ts start them)",
      severity: "error",
      from: { path: OPERATOR, pathNot: "\\.test\\.ts$" },
      to: { path: STAND_INS },
    },
    {
      name: "lib-imports-nothing-of-the-project",
      comment: "src/lib/ holds libraries that are nobody's concern: they import nothing of the project",
      severity: "error",
      from: { path: "^src/lib/" },
      to: { path: "^src/", pathNot: "^src/lib/" },
    },
    {
      name: "neutral-libraries-import-nothing-of-either-side",
      comment: "the admission engine and the service model serve both sides: they import neither",
      severity: "error",
      from: { path: "^src/(admission|service-model)/" },
      to: { path: "^src/", pathNot: "^src/(admission|service-model|lib)/" },
    },
    {
      name: "runtime-imports-no-kind-or-subcommand",
      comment: "the runtime never imports a kind, a subcommand or the CLI: they import it",
      severity: "error",
      from: { path: "^src/runtime/", pathNot: TEST },
      to: { path: "^src/(kinds|run|plan|export|trace|dev|inventory|cli)/|^src/(cli|commands)\\.ts$" },
    },
    {
      name: "kinds-import-the-sdk-face",
      comment: "a kind imports the runtime only through its SDK face (src/runtime/sdk/index.ts)",
      severity: "error",
      from: { path: "^src/kinds/", pathNot: TEST },
      to: { path: "^src/runtime/", pathNot: "^src/runtime/sdk/index\\.ts$" },
    },
    {
      name: "runtime-packages-through-their-faces",
      comment: "a runtime package is imported through its index.ts from outside it",
      severity: "error",
      from: { path: "^src/runtime/([^/]+)/" },
      to: {
        path: "^src/runtime/[^/]+/",
        pathNot: ["^src/runtime/$1/", "^src/runtime/[^/]+/index\\.ts$", "\\.testing\\.ts$"],
      },
    },
    {
      name: "packages-through-their-faces",
      comment:
        "a package (runtime/*, lib, inventory, run, admission, service-model) is imported through its index.ts from outside it",
      severity: "error",
      from: {
        path: "^(src/|test/|bench/|scripts/)",
        pathNot: `^src/runtime/|${FACED.map((p) => `^src/${p}/`).join("|")}`,
      },
      to: {
        path: `^src/(runtime/[^/]+|${FACED.join("|")})/[^/]+$`,
        // src/commands.ts lists each subcommand's definition (command.ts), which loads the rest when it runs.
        pathNot: ["/index\\.ts$", "\\.testing\\.ts$", "^src/run/command\\.ts$"],
      },
    },
    ...FACED.map((pkg) => ({
      name: `${pkg.replace("/", "-")}-imports-other-packages-through-their-faces`,
      comment: `src/${pkg}/ imports another package through its index.ts`,
      severity: "error",
      from: { path: `^src/${pkg}/` },
      to: {
        path: `^src/(runtime/[^/]+|${FACED.join("|")})/[^/]+$`,
        pathNot: [`^src/${pkg}/`, "/index\\.ts$", "\\.testing\\.ts$"],
      },
    })),
    {
      name: "same-package-stays-inside",
      comment: "a file of lib, inventory or run imports its own package's files, not its face",
      severity: "error",
      from: { path: "^src/(lib|inventory|run)/[^/]+$" },
      to: { path: "^src/$1/index\\.ts$" },
    },
    {
      name: "plan-and-export-apart",
      comment: "plan and export share what they read through src/inventory/, never each other",
      severity: "error",
      from: { path: "^src/(plan|export)/" },
      to: { path: "^src/(plan|export)/", pathNot: "^src/$1/" },
    },
    {
      name: "offline-commands-load-no-manager",
      comment: "plan, export and trace load neither the operator's manager nor its informers",
      severity: "error",
      from: { path: "^src/(plan|export|trace)/" },
      to: { path: "^src/runtime/(manager|cache)/", reachable: true },
    },
    {
      name: "production-imports-no-testing",
      comment: "test fakes and helpers (*.testing.ts, testing/) are for tests only",
      severity: "error",
      from: { path: "^src/", pathNot: TEST },
      to: { path: "\\.testing\\.ts$|/testing/" },
    },
    ...layerRules(),
  ],
  options: {
    // swc reports type-only imports as dependencies by itself; tsPreCompilationDeps would ask for
    // the TypeScript compiler API, which TypeScript 7 does not ship.
    parser: "swc",
    includeOnly: "^(src|test|bench|scripts)/",
    doNotFollow: { path: "node_modules" },
  },
};
