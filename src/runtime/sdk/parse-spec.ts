import type * as z from "zod";
import { InvalidSpecError, invalidHref } from "./result.ts";
import { INVALID_HREF } from "./spec.ts";

/** Parses a spec with the kind's zod schema; a failure is InvalidSpec naming every field. */
export function parseSpec<S>(schema: z.ZodType<S>, spec: unknown): S {
  const result = schema.safeParse(spec ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues;
  const first = issues[0]!;
  const field = first.path.map(String).join(".") || "(root)";
  const rest = issues.slice(1).map((i) => `spec.${i.path.map(String).join(".") || "(root)"}: ${i.message}`);
  const message = [first.message, ...rest].join("; ");
  if (isHrefIssue(first)) throw invalidHref(`spec.${field}`, message);
  throw new InvalidSpecError(field, message);
}

function isHrefIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === "custom" && issue.params?.reason === INVALID_HREF.reason;
}
