/**
 * RE2 matching (the syntax Kubernetes uses for `pattern` and CEL `matches`), borrowed from the
 * CEL library's own RE2 engine so lookarounds and backreferences are rejected exactly like Go.
 */
import { CelScalar, celEnv, isCelError, parse, plan } from "@bufbuild/cel";

const env = celEnv({ variables: { s: CelScalar.STRING, p: CelScalar.STRING } });
const matchProgram = plan(env, parse("s.matches(p)"));

export type RegexResult = { ok: true; matches: boolean } | { ok: false; error: string };

export function re2Match(pattern: string, value: string): RegexResult {
  const r = matchProgram({ s: value, p: pattern });
  if (isCelError(r)) return { ok: false, error: r.message };
  return { ok: true, matches: r === true };
}

/** undefined when the pattern compiles as RE2, otherwise the compile error. */
export function re2Error(pattern: string): string | undefined {
  const r = re2Match(pattern, "");
  return r.ok ? undefined : r.error;
}
