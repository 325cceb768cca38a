// The audit trail's calls to the service and how their failures are named (audit.ts uses them).
import { isApiError, type ServiceApi } from "../../api/index.ts";

/** The two audit calls, on the Account's client (ServiceApi in the operator; fakes in tests). */
export interface AuditCalls {
  create(client: unknown, params: { auditee_href: string; summary: string; detail: string }): Promise<string>;
  append(client: unknown, href: string, params: { detail: string; summary: string }): Promise<void>;
}

export const serviceAuditCalls: AuditCalls = {
  create: (client, params) => (client as ServiceApi).auditEntries.create(params),
  append: (client, href, params) => (client as ServiceApi).auditEntries.append(href, params),
};

export interface AuditMetrics {
  auditError(kind: string, reason: string): void;
}

/** Why an audit call failed, as a bounded metric label: the service client's error kinds, and ours. */
export type AuditErrorReason =
  | "notFound"
  | "invalid"
  | "conflict"
  | "unauthorized"
  | "throttled"
  | "retryable"
  | "outcomeUnknown"
  | "queueFull"
  | "shutdown"
  | "statusWrite"
  | "other";

export class AuditFailure extends Error {
  override name = "AuditFailure";
  readonly code = "AUDIT_FAILED";
  readonly reason: AuditErrorReason;
  constructor(reason: AuditErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

export function auditErrorReason(error: unknown): AuditErrorReason {
  if (error instanceof AuditFailure) return error.reason;
  if (isApiError(error)) return error.kind;
  return "other";
}
