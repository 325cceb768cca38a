/**
 * The manager: what runs the reconcilers. The work queue (fair across namespaces), the workers
 * and their slots, leader election, the informer handlers that enqueue, the periodic resync and
 * the start's confirmation of settled resources through the same index reads, the operator's
 * configuration and its lifecycle. Not here: what a reconcile does (reconcile/).
 */

export * from "./observer.ts";
export * from "./operator.ts";
export * from "./operator-workers.ts";
export * from "./queue.ts";
