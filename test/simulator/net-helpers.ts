import { expect } from "vitest";
import type { Harness, SimAnswer } from "./harness.ts";

/**
 * Shared by SIM-NET's integration tests: one row of a bad-input table, and the assertion that
 * a call is refused with its status, names the parameter (or the rule) in the plain-text
 * body, and leaves the store exactly as it was.
 */
export interface BadInput {
  reason: string;
  /** The request body (sent as JSON unless `form` is set). */
  body: Record<string, unknown>;
  status: 400 | 422;
  /** Text the error body must contain (the parameter in bracket notation, the rule). */
  message: string;
  form?: boolean;
}

export async function expectRefused(
  h: Harness,
  call: () => Promise<SimAnswer>,
  status: number,
  message: string,
): Promise<SimAnswer> {
  const res = await h.expectUnchanged(call);
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  expect(res.text).toContain(message);
  if (status === 400) expect(res.text).toMatch(/^ParameterError: /);
  return res;
}

/** Sends a bad-input row with `method` to `path` and expects its refusal. */
export function refuse(h: Harness, method: "POST" | "PUT", path: string, row: BadInput): Promise<SimAnswer> {
  const options = row.form ? { form: row.body } : { json: row.body };
  return expectRefused(h, () => h.admin.request(method, path, options), row.status, row.message);
}

export interface Rep {
  links: Array<{ rel: string; href: string }>;
  [field: string]: unknown;
}

/** The href of a link by rel (undefined when absent). */
export function rel(rep: Rep, name: string): string | undefined {
  return rep.links.find((l) => l.rel === name)?.href;
}

/** Creates with the admin and answers the Location (asserting 201 and a relative Location). */
export async function create(h: Harness, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await h.admin.post(path, { json: body });
  expect(res.status, res.text).toBe(201);
  const location = res.headers.get("location");
  expect(location).toMatch(/^\/api\//);
  return location!;
}

/** Index with filters, answering the parsed list. */
export async function index<T = Rep>(h: Harness, path: string, filters: string[] = []): Promise<T[]> {
  const res = await h.admin.get(path, filters.length ? { query: { filter: filters } } : {});
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toContain(";type=collection");
  return res.json<T[]>();
}

export async function show<T = Rep>(h: Harness, href: string): Promise<T> {
  const res = await h.admin.get(href);
  expect(res.status, res.text).toBe(200);
  return res.json<T>();
}
