import { isApiError, type ServiceApi } from "../../api/index.ts";

/** Undefined for a service "not found" (404, or 422 ResourceNotFound). */
export async function orUndefined<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isApiError(error) && error.kind === "notFound") return undefined;
    throw error;
  }
}

/** The parts of the service client the network kinds use (a fake in unit tests). */
export type NetClient = Pick<ServiceApi, "networks" | "subnets" | "networkGateways" | "routes" | "clouds">;

/** atProvider without null/undefined members: status storage drops them (merge patch), and the drift check compares. */
export function compact(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined));
}
