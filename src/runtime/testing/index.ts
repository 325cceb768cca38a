/**
 * Test fakes of the runtime: an in-memory apiserver (FakeKube), a clock tests move, a toy
 * kind for reconciler tests, a log kept in memory. Never imported by production code.
 */

export * from "./fake-clock.ts";
export * from "./fake-kube.ts";
export * from "./memory-log.ts";
export * from "./reconciler-widgets.ts";
