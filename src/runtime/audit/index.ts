/**
 * The audit trail in the service: each change the operator makes to a service object,
 * appended to that object's audit entry, batched per object. Not here: deciding what changes.
 */

export * from "./audit.ts";
export * from "./audit-text.ts";
