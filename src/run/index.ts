/**
 * `svc-operator run`: the operator's composition root. Flags, the Kubernetes config, the
 * service client's options, the Account kind and every managed kind, wired into the manager.
 * Not here: anything the operator does (runtime/).
 */

export * from "./command.ts";
export * from "./start.ts";
