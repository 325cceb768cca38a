/**
 * Indexes across objects, kept from informer events: who references whom (references,
 * reference state, what blocks a deletion), who manages each href (owners), and which objects
 * order themselves among each other (siblings). Not here: the reads of the cache itself (cache/).
 */

export * from "./blockers.ts";
export * from "./owners.ts";
export * from "./reference-state.ts";
export * from "./references.ts";
export * from "./siblings.ts";
