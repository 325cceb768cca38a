import type { Logger } from "pino";
import type { ObjectStore } from "../client/index.ts";
import { isReported } from "../client/index.ts";
import { type Blocker, blockedMessage } from "../indexes/index.ts";
import type { ManagedObject, Outcome } from "../sdk/index.ts";
import { Reason } from "../sdk/index.ts";
import type { ExplainServiceError, ProblemLog, ServiceHint } from "../telemetry/index.ts";

/** A failure carrying the words a person acts on; the service client's error is its cause. */
export class ExplainedError extends Error {
  override name = "ExplainedError";
  readonly hint: ServiceHint;
  constructor(hint: ServiceHint, cause: unknown) {
    super(hint.message, { cause });
    this.hint = hint;
  }
}

/** The error an Account's check failed with, explained when the explanation says more. */
export function explainAccountError(
  explain: ExplainServiceError | undefined,
  error: unknown,
  obj: ManagedObject,
): unknown {
  const endpoint = (obj.spec as { endpoint?: unknown } | undefined)?.endpoint;
  const hint = explain?.(error, typeof endpoint === "string" ? endpoint : undefined);
  return hint ? new ExplainedError(hint, error) : error;
}

/** What to do, for the reasons whose condition message says what is wrong but not that. */
const FIXES: Record<string, string> = {
  [Reason.CredentialsInvalid]:
    "put working credentials in the Secret the Account names, then set cloud.svc.io/reconcile-requested-at on the Account to check now (else re-checked every minute); its resources wait, nothing is deleted",
  [Reason.SecretNotFound]: "create the Secret in the Account's namespace",
  [Reason.SecretKeyMissing]: "add the key to the Secret",
};

/**
 * Why an Account is not in the cache: not there, or not listed yet (the operator may not list
 * Accounts, or their CRD is missing), which its resources must not call "not found".
 */
export function missingAccount(store: ObjectStore, namespace: string, name: string): string {
  const unlisted = store.unlisted?.("Account");
  return unlisted === undefined
    ? `Account ${name} not found in namespace ${namespace}`
    : `the operator cannot read Accounts yet: ${unlisted}`;
}

/** What a ProblemLog knows an Account by: its recovery (or deletion) clears its line. */
export const accountSubject = (namespace: string, name: string) => `Account ${namespace}/${name}`;

/**
 * Logs why an Account is not ready: once when it starts, once a minute while it lasts, once when it
 * clears (ProblemLog), not at each retry. A deletion waiting for dependents is the normal course
 * (info, each time); what the apiserver client reported already is not logged again.
 */
export function logAccountFailure(
  problems: ProblemLog | undefined,
  log: Logger,
  account: { namespace: string; name: string },
  outcome: Outcome,
  error: unknown,
): void {
  const reason = "reason" in outcome ? outcome.reason : undefined;
  const message = "message" in outcome ? outcome.message : "";
  if (isReported(error)) {
    log.debug({ reason }, message);
    return;
  }
  if (!problems || (outcome.type === "waiting" && reason === Reason.DeletionBlocked)) {
    log[outcome.type === "waiting" ? "info" : "warn"]({ reason }, message);
    return;
  }
  const subject = accountSubject(account.namespace, account.name);
  const kind = error instanceof ExplainedError ? error.hint.cause : "";
  const fix = reason === undefined ? undefined : FIXES[reason];
  problems.failed({
    cause: `${subject} ${reason ?? outcome.type} ${kind}`.trim(),
    subject,
    message: `${subject} is not ready (${reason}): ${message}${fix ? `; ${fix}` : ""}`,
    fields: { kind: "Account", namespace: account.namespace, name: account.name, reason },
  });
}

/**
 * An Account held by its dependents: who they are, and, when it has no client for their deletes,
 * what is missing and how to let them go.
 */
export function accountBlockedMessage(blockers: readonly Blocker[], missing: string | undefined): string {
  const message = blockedMessage(blockers, "spec.accountRef");
  if (missing === undefined) return message;
  return (
    `${message}; they cannot delete their service objects: ${missing}, and this operator process ` +
    "kept no credentials from before; restore them, or set spec.deletionPolicy: Orphan on those " +
    "resources to leave their service objects in the service"
  );
}
