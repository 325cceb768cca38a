import { isApiError } from "../../api/index.ts";
import { DeletionBlockedError } from "../../runtime/sdk/index.ts";

/** Undefined for a service "not found" (404, or 422 ResourceNotFound). */
export async function orUndefined<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isApiError(error) && error.kind === "notFound") return undefined;
    throw error;
  }
}

/**
 * atProvider without null and undefined values: status is written as a JSON merge patch, where
 * null deletes a key, so a null kept here would never match status.atProvider and every resync
 * would report drift.
 */
export function compact(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * A number the service may show as a number or as digits (the spec has clients send some as
 * digits and does not say how they read back); null for anything else.
 */
export function numeric(value: unknown): number | null {
  if (typeof value === "number") return value;
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : null;
}

/** How often a deletion the service refuses (something it knows still uses the object) is retried. */
export const DELETION_RETRY_MS = 5_000;

/**
 * Destroys an object; when the service refuses (422/409: dependents it knows of, made outside the
 * operator or named by href, that no reference held the deletion back for), waits for them
 * (DeletionBlocked, retried) instead of stalling for good. `hint` says what lets it go.
 */
export async function destroyOrWait(
  destroy: () => Promise<void>,
  href: string,
  retryMs = DELETION_RETRY_MS,
  hint?: string,
): Promise<void> {
  try {
    await destroy();
  } catch (error) {
    if (isApiError(error) && error.kind === "conflict") {
      throw new DeletionBlockedError(
        `the service refuses to delete ${href} yet: ${error.serviceMessage ?? error.message}${hint ? `; ${hint}` : ""}`,
        retryMs,
      );
    }
    throw error;
  }
}
