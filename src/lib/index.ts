/**
 * Small libraries that are nobody's concern: a clock, a bounded map, counted permits,
 * memory footprints, string interning. They import nothing of the project.
 */

export * from "./bounded-map.ts";
export * from "./clock.ts";
export * from "./footprint.ts";
export * from "./permits.ts";
export * from "./string-pool.ts";
