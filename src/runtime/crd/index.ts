/**
 * CRD generation: the CRD of each kind from its zod schemas (structural, RE2-safe), and
 * crds/ and docs/crds.md as `npm run generate` writes them. Not here: the kinds' schemas.
 */

export * from "./build.ts";
export * from "./render.ts";
export * from "./structural.ts";
