import { expect, it } from "vitest";
import type { Harness } from "./harness.ts";

/** One call the simulator must refuse, made as `h.admin`. */
export interface Rejection {
  reason: string;
  /** Default `get`. */
  method?: "get" | "post" | "put" | "delete";
  path: string;
  form?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** Built for the call itself (a fresh upload each time). */
  multipart?: () => FormData;
  status: number;
  /** What the error body must match (the parameter and the rule it broke). */
  text: RegExp;
}

/**
 * One test per case, named `<reason> → <status>`: the call answers `status` with a body
 * matching `text` and leaves the store as it was. `harness` is read when the test runs,
 * after the file's beforeAll has started the simulator.
 */
export function expectRejected(harness: () => Harness, cases: Rejection[]): void {
  it.each(cases)(
    "$reason → $status",
    async ({ method = "get", path, form, query, multipart, status, text }) => {
      const h = harness();
      const res = await h.expectUnchanged(() =>
        h.admin[method](path, { form, query, multipart: multipart?.() }),
      );
      expect(res.status, res.text).toBe(status);
      expect(res.text).toMatch(text);
    },
  );
}

/** Cases that all make the same call (`method path`) and differ in their parameters. */
export function callsTo(
  method: NonNullable<Rejection["method"]>,
  path: string,
  cases: Omit<Rejection, "method" | "path">[],
): Rejection[] {
  return cases.map((c) => ({ ...c, method, path }));
}
