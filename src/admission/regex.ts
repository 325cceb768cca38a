/**
 * RE2 matching (the syntax Kubernetes uses for `pattern` and CEL `matches`), borrowed from the
 * CEL library's own RE2 engine so lookarounds and backreferences are rejected exactly like Go.
 */
import { CelScalar, celEnv, isCelError, parse, plan } from "@bufbuild/cel";

const env = celEnv({ variables: { s: CelScalar.STRING, p: CelScalar.STRING } });
const matchProgram = plan(env, parse("s.matches(p)"));

export type RegexResult = { ok: true; matches: boolean } | { ok: false; error: string };

/** The engine rebuilds its automaton per call, so remember recent answers (objects are re-admitted often). */
const memo = new Map<string, RegexResult>();
const MEMO_LIMIT = 10_000;

export function re2Match(pattern: string, value: string): RegexResult {
  const key = `${pattern}\u0000${value}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const r = matchProgram({ s: value, p: pattern });
  const result: RegexResult = isCelError(r)
    ? { ok: false, error: r.message }
    : { ok: true, matches: r === true };
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(key, result);
  return result;
}

/** undefined when the pattern compiles as RE2, otherwise the compile error. */
export function re2Error(pattern: string): string | undefined {
  const r = re2Match(pattern, "");
  return r.ok ? undefined : r.error;
}
