/**
 * How the operator says what it does: Prometheus metrics (operator, process, memory), the
 * structured logger, the problem log (one line per shared cause) and the words for a service
 * failure. Not here: what is counted's meaning for conditions (sdk/outcome).
 */

export * from "./condition-tally.ts";
export * from "./logging.ts";
export * from "./memory-metrics.ts";
export * from "./metrics.ts";
export * from "./problems.ts";
export * from "./process-metrics.ts";
export * from "./service-hints.ts";
