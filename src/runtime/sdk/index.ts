/**
 * The kind SDK: everything a kind module imports from the runtime. The kind contract
 * (ManagedKind and its small interfaces), the typed results and errors a kind throws and how they
 * become conditions (result, outcome, conditions), the fixed names, spec building blocks, the one
 * spelling of an href, the status schema, keys read from ConfigMaps and Secrets, cached name
 * lookups, and the Account kind's contract. Not here: how a reconcile runs (reconcile/), how the
 * operator talks to Kubernetes (client/, cache/), or any kind.
 */

export * from "./account-kind.ts";
export * from "./account-use.ts";
export * from "./canonical-href.ts";
export * from "./conditions.ts";
export * from "./fixed-references.ts";
export * from "./key-sources.ts";
export * from "./kind.ts";
export * from "./links.ts";
export * from "./lookup.ts";
export * from "./names.ts";
export * from "./outcome.ts";
export * from "./parse-spec.ts";
export * from "./result.ts";
export * from "./shared-answers.ts";
export * from "./spec.ts";
export * from "./status-schema.ts";
export * from "./values.ts";
