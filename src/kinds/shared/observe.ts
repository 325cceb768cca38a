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

/**
 * A number the service may show as a number or as digits (the spec has clients send some as
 * digits and does not say how they read back); null for anything else.
 */
export function numeric(value: unknown): number | null {
  if (typeof value === "number") return value;
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : null;
}
