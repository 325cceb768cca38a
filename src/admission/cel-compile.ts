/**
 * Compiling x-kubernetes-validations rules with the static checks the apiserver makes when a CRD
 * is written: syntax, undeclared references, fields the schema does not have, operator overloads
 * between operands of certain types, and whether a rule uses oldSelf (a transition rule).
 * Messages and positions follow cel-go ("ERROR: <input>:1:6: undefined field 'x'").
 */
import { parse, plan } from "@bufbuild/cel";
import { ENV, type Program } from "./cel-runtime.ts";
import { type ExprNode, StaticChecker } from "./cel-static-check.ts";
import type { StaticType } from "./cel-static-types.ts";
import type { JSONSchemaProps, ValidationRule } from "./types.ts";

export interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  messageProgram?: Program;
  usesOldSelf: boolean;
  /** "compilation failed: ERROR: <input>:1:6: undefined field 'x'" and friends. */
  error?: string;
  messageExpressionError?: string;
}

function location(source: string, offset: number): { line: number; col: number } {
  const before = source.slice(0, offset);
  const line = before.split("\n").length;
  const col = offset - (before.lastIndexOf("\n") + 1) + 1;
  return { line, col };
}

function formatIssue(source: string, offset: number, message: string): string {
  const { line, col } = location(source, offset);
  const text = source.split("\n")[line - 1] ?? "";
  return `ERROR: <input>:${line}:${col}: ${message}\n | ${text}\n | ${".".repeat(col - 1)}^`;
}

type CompileResult = { program: Program; usesOldSelf: boolean } | { error: string };

function compileExpression(source: string, self: StaticType): CompileResult {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
  } catch (err) {
    const msg = (err as Error).message;
    const m = /^<input>:(\d+):(\d+): (.*)$/s.exec(msg);
    if (m) {
      const text = source.split("\n")[Number(m[1]) - 1] ?? "";
      return {
        error: `ERROR: <input>:${m[1]}:${m[2]}: Syntax error: ${m[3]}\n | ${text}\n | ${".".repeat(Number(m[2]) - 1)}^`,
      };
    }
    return { error: `ERROR: <input>:1:1: Syntax error: ${msg}` };
  }
  const positions = (parsed.sourceInfo?.positions ?? {}) as Record<string, number>;
  const checker = new StaticChecker(positions, self);
  checker.check(parsed.expr as unknown as ExprNode, new Map());
  if (checker.issues.length > 0) {
    return { error: checker.issues.map((i) => formatIssue(source, i.offset, i.message)).join("\n") };
  }
  try {
    const program = plan(ENV, parsed) as unknown as Program;
    return { program, usesOldSelf: checker.usesOldSelf };
  } catch (err) {
    return { error: `ERROR: <input>:1:1: ${(err as Error).message}` };
  }
}

const cache = new Map<string, CompiledRule>();
/** Fast path when the caller keeps passing the same schema objects (no re-serialization). */
const byIdentity = new WeakMap<
  ValidationRule,
  { schema: JSONSchemaProps; isRoot: boolean; compiled: CompiledRule }
>();

/** Compiles one rule of the schema node `schema` (cached by rule text and node schema). */
export function compileRule(
  rule: ValidationRule,
  schema: JSONSchemaProps,
  isResourceRoot: boolean,
): CompiledRule {
  const known = byIdentity.get(rule);
  if (known && known.schema === schema && known.isRoot === isResourceRoot) return known.compiled;
  const compiled = compileRuleUncached(rule, schema, isResourceRoot);
  byIdentity.set(rule, { schema, isRoot: isResourceRoot, compiled });
  return compiled;
}

function compileRuleUncached(
  rule: ValidationRule,
  schema: JSONSchemaProps,
  isResourceRoot: boolean,
): CompiledRule {
  const key = JSON.stringify([rule, schema, isResourceRoot]);
  const hit = cache.get(key);
  if (hit) return hit;
  const self: StaticType = { schema, isRoot: isResourceRoot };
  const compiled: CompiledRule = { rule, usesOldSelf: false };
  if (!rule.rule || rule.rule.trim() === "") {
    compiled.error = "rule is not specified";
  } else {
    const r = compileExpression(rule.rule, self);
    if ("error" in r) compiled.error = `compilation failed: ${r.error}`;
    else {
      compiled.program = r.program;
      compiled.usesOldSelf = r.usesOldSelf;
    }
  }
  if (rule.messageExpression) {
    const m = compileExpression(rule.messageExpression, self);
    if ("error" in m) compiled.messageExpressionError = `messageExpression compilation failed: ${m.error}`;
    else compiled.messageProgram = m.program;
  }
  if (cache.size > 5000) cache.clear();
  cache.set(key, compiled);
  return compiled;
}
