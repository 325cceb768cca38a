import { BlockedError, Reason, type TerminalError, terminal } from "./result.ts";

/**
 * What a resource asks its Account's client for. `write`: observe, create and update a resource
 * that is not being deleted. `delete`: observe and delete the service object of a resource that is
 * being deleted; an Account being deleted still serves that, and so does the last client that
 * worked when a later check fails (the Secret went first, as in a namespace deletion).
 */
export type AccountUse = "write" | "delete";

/** An Account's answer when it has no client for the use asked. */
export interface NoClient {
  notReady: string;
  /** This process has not finished its first check of the Account yet (its dependents are parked). */
  pending?: boolean;
  /** The Account's own reason (SecretNotFound, CredentialsInvalid, ...), when its check failed. */
  reason?: string;
  /** How long the check has been failing (ms): a dependent that cannot delete backs off from it. */
  failingForMs?: number;
}

/** Why a resource not being deleted cannot use an Account that is (it follows "Account x is not ready: "). */
export const ACCOUNT_DELETING =
  "it is being deleted: it serves only the deletion of the resources using it, no creates or " +
  "updates; delete this resource too, or point spec.accountRef at another Account";

/** Retries of a delete that has no credentials: 2 s, growing with the wait, at most a minute apart. */
export function noCredentialsRetryMs(failingForMs: number | undefined): number {
  return Math.min(60_000, Math.max(2_000, failingForMs ?? 0));
}

/**
 * A resource being deleted whose Account has no client at all (the operator started after the
 * Secret was deleted, so no credentials were kept): it cannot delete its service object. Retried
 * with a bounded backoff; the message says what is missing and how to let the resource go.
 */
export function cannotDelete(account: string, found: NoClient, href: string | undefined): BlockedError {
  const object = href ?? "its service object";
  const release =
    `; restore the Account's credentials, or set spec.deletionPolicy: Orphan to release this ` +
    `resource and leave ${object} in the service`;
  const reason =
    found.reason === Reason.SecretNotFound ||
    found.reason === Reason.SecretKeyMissing ||
    found.reason === Reason.CredentialsInvalid
      ? found.reason
      : Reason.DependencyNotReady;
  const why =
    reason !== Reason.DependencyNotReady
      ? `Account ${account} has no working credentials: ${found.notReady}, and this operator process kept none from before`
      : found.notReady.startsWith("Account ")
        ? found.notReady
        : `Account ${account}: ${found.notReady}`;
  return new BlockedError(
    reason,
    `cannot delete ${object}: ${why}${release}`,
    noCredentialsRetryMs(found.failingForMs),
  );
}

/** How often a missing Secret is looked for again. */
export const SECRET_RECHECK_MS = 30_000;

/**
 * A missing Secret or key: the Account cannot authenticate until the Secret changes (Synced=False,
 * re-checked), with a message saying which.
 */
export function secretProblem(
  reason: typeof Reason.SecretNotFound | typeof Reason.SecretKeyMissing,
  message: string,
): BlockedError {
  return new BlockedError(reason, message, SECRET_RECHECK_MS);
}

/** How often refused credentials are tried again (Secrets are not watched). */
const CREDENTIALS_RECHECK_MS = 60_000;

/** The service refused the credentials: Synced=False until the Secret holds working ones. */
export function credentialsRefused(message: string): BlockedError {
  return new BlockedError(Reason.CredentialsInvalid, message, CREDENTIALS_RECHECK_MS);
}

/**
 * The Account's endpoint, or a host it redirects to, is outside the operator's
 * --allowed-endpoints: nothing is sent there, and only a change of the endpoint or of the flag
 * (which restarts the operator) can help, so it is not retried (Stalled).
 */
export function endpointNotAllowed(message: string): TerminalError {
  return terminal(Reason.EndpointNotAllowed, message);
}
