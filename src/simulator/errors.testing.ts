import { SimError } from "./errors.ts";

/**
 * For unit tests of validation helpers: `accepted` when `run` returns, else the status and
 * body the client would get from the SimError it throws. Any other error is a bug: rethrown.
 */
export function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SimError) return `${error.status} ${error.body}`;
    throw error;
  }
  return "accepted";
}
