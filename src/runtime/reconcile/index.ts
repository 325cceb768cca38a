/**
 * The managed reconciler: one reconcile of one object is a Run, whose phases (one file each)
 * follow the design's picture; the pure decisions plan shares (decide); batched reads of
 * the service and the link checks before a create. Not here: the work queue (manager/), Accounts
 * (accounts/), any kind.
 */

export * from "./batched-reads.ts";
export * from "./decide.ts";
export * from "./deps.ts";
export * from "./link-check.ts";
export * from "./reconciler.ts";
