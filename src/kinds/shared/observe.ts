import { isApiError } from "../../api/index.ts";

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
