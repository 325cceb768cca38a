/**
 * The operator's configuration: every flag of `svc-operator run`, its environment variable,
 * its default and its rule, merged and validated (ConfigError names both the flag and the
 * variable). Not here: what the operator does with it (manager/), the flags' CLI (lib/cli).
 */

export * from "./config.ts";
