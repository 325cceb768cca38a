/**
 * Compiling x-kubernetes-validations rules with the static checks the apiserver makes when a CRD
 * is written: syntax, undeclared references, fields the schema does not have, operator overloads
 * between operands of certain types, and whether a rule uses oldSelf (a transition rule).
 * Messages and positions follow cel-go ("ERROR: <input>:1:6: undefined field 'x'").
 */
import { parse, plan } from "@bufbuild/cel";
import { ENV, type Program, unescapeFieldName } from "./cel-runtime.ts";
import { additionalSchema, type JSONSchemaProps, type ValidationRule } from "./types.ts";

/** Identifiers a rule may use without declaring them. */
const BUILTIN_IDENTS = new Set([
  "self",
  "oldSelf",
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "bytes",
  "list",
  "map",
  "null_type",
  "type",
  "dyn",
  "google",
]);

/**
 * Global functions: CEL's standard ones plus the Kubernetes libraries' (those this evaluator lacks
 * compile, as on the real server, and fail at evaluation with "unbound function").
 */
const GLOBAL_FUNCS = new Set([
  "size",
  "int",
  "uint",
  "double",
  "string",
  "bytes",
  "bool",
  "type",
  "dyn",
  "duration",
  "timestamp",
  "matches",
  "url",
  "isURL",
  "ip",
  "isIP",
  "cidr",
  "isCIDR",
  "quantity",
  "isQuantity",
  "semver",
  "isSemver",
]);

export interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  messageProgram?: Program;
  usesOldSelf: boolean;
  /** "compilation failed: ERROR: <input>:1:6: undefined field 'x'" and friends. */
  error?: string;
  messageExpressionError?: string;
}

interface ExprNode {
  id: bigint;
  exprKind: { case: string | undefined; value?: unknown };
}

/** The schema the static checker attributes to an expression, when it can tell. */
type StaticType = { schema: JSONSchemaProps; isRoot: boolean } | undefined;

class StaticChecker {
  readonly issues: { offset: number; message: string }[] = [];
  usesOldSelf = false;
  private readonly positions: Record<string, number>;
  private readonly self: StaticType;

  constructor(positions: Record<string, number>, self: StaticType) {
    this.positions = positions;
    this.self = self;
  }

  private issue(e: ExprNode, message: string): void {
    this.issues.push({ offset: this.positions[String(e.id)] ?? 0, message });
  }

  check(e: ExprNode | undefined, scope: Map<string, StaticType>): StaticType {
    if (!e) return undefined;
    const v = e.exprKind.value as Record<string, unknown>;
    switch (e.exprKind.case) {
      case "identExpr": {
        const name = v.name as string;
        if (scope.has(name)) return scope.get(name);
        if (name === "oldSelf") this.usesOldSelf = true;
        if (name === "self" || name === "oldSelf") return this.self;
        if (!BUILTIN_IDENTS.has(name)) this.issue(e, `undeclared reference to '${name}' (in container '')`);
        return undefined;
      }
      case "selectExpr": {
        const operand = this.check(v.operand as ExprNode, scope);
        const field = this.field(e, operand, v.field as string);
        return v.testOnly ? scalar("boolean") : field;
      }
      case "constExpr":
        return constType(v as { constantKind: { case: string | undefined } });
      case "callExpr": {
        const target = v.target as ExprNode | undefined;
        const fn = v.function as string;
        if (!target && !/^[_!@-]/.test(fn) && !GLOBAL_FUNCS.has(fn)) {
          this.issue(e, `undeclared reference to '${fn}' (in container '')`);
        }
        this.check(target, scope);
        const args = (v.args as ExprNode[]).map((arg) => this.check(arg, scope));
        return this.call(e, fn, args);
      }
      case "listExpr":
        for (const el of v.elements as ExprNode[]) this.check(el, scope);
        return undefined;
      case "structExpr":
        for (const entry of v.entries as { value?: ExprNode; keyKind: { case: string; value: unknown } }[]) {
          if (entry.keyKind.case === "mapKey") this.check(entry.keyKind.value as ExprNode, scope);
          this.check(entry.value, scope);
        }
        return undefined;
      case "comprehensionExpr": {
        const range = this.check(v.iterRange as ExprNode, scope);
        const inner = new Map(scope);
        const rs = range?.schema;
        const elem: StaticType =
          rs?.type === "array" && rs.items
            ? { schema: rs.items, isRoot: false }
            : rs?.type === "object"
              ? { schema: { type: "string" }, isRoot: false }
              : undefined;
        inner.set(v.iterVar as string, elem);
        if (v.iterVar2) inner.set(v.iterVar2 as string, undefined);
        this.check(v.accuInit as ExprNode, scope);
        inner.set(v.accuVar as string, undefined);
        this.check(v.loopCondition as ExprNode, inner);
        this.check(v.loopStep as ExprNode, inner);
        this.check(v.result as ExprNode, inner);
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * Overload checks cel-go makes at compile time, limited to operands whose types are certain
   * (scalars from the schema or literals), so a valid rule is never rejected.
   */
  private call(e: ExprNode, fn: string, args: StaticType[]): StaticType {
    const [a, b] = args.map(celScalar);
    const mismatch = () =>
      this.issue(
        e,
        `found no matching overload for '${fn}' applied to '(${args.map((t) => celScalar(t)).join(", ")})'`,
      );
    switch (fn) {
      case "_==_":
      case "_!=_":
        if (a && b && a !== b && a !== "null_type" && b !== "null_type") mismatch();
        return scalar("boolean");
      case "_<_":
      case "_<=_":
      case "_>_":
      case "_>=_":
        if (a && b && a !== b && !(NUMERIC.has(a) && NUMERIC.has(b))) mismatch();
        return scalar("boolean");
      case "_+_":
      case "_-_":
      case "_*_":
      case "_/_":
      case "_%_":
        if (a && b && a !== b) mismatch();
        return a && a === b ? args[0] : undefined;
      case "_&&_":
      case "_||_":
        if (a && b && (a !== "bool" || b !== "bool")) mismatch();
        return scalar("boolean");
      case "!_":
      case "@in":
      case "matches":
      case "startsWith":
      case "endsWith":
      case "contains":
      case "isSorted":
        return scalar("boolean");
      case "size":
        return scalar("integer");
      case "int":
        return scalar("integer");
      case "double":
        return scalar("number");
      case "string":
        return scalar("string");
      case "_?_:_":
        return celScalar(args[1]) !== undefined && celScalar(args[1]) === celScalar(args[2])
          ? args[1]
          : undefined;
      case "_[_]": {
        const s = args[0]?.schema;
        if (s?.type === "array" && s.items) return { schema: s.items, isRoot: false };
        const ap = s ? additionalSchema(s) : undefined;
        return ap ? { schema: ap, isRoot: false } : undefined;
      }
      default:
        return undefined;
    }
  }

  private field(e: ExprNode, operand: StaticType, name: string): StaticType {
    if (!operand) return undefined;
    const s = operand.schema;
    if (operand.isRoot && (name === "apiVersion" || name === "kind")) {
      return { schema: { type: "string" }, isRoot: false };
    }
    if (operand.isRoot && name === "metadata") {
      return {
        schema: {
          type: "object",
          properties: { name: { type: "string" }, generateName: { type: "string" } },
        },
        isRoot: false,
      };
    }
    const prop = s.properties?.[unescapeFieldName(name)];
    if (prop) return { schema: prop, isRoot: prop["x-kubernetes-embedded-resource"] === true };
    const ap = additionalSchema(s);
    if (ap) return { schema: ap, isRoot: false };
    if (
      s.type === "object" &&
      !s["x-kubernetes-preserve-unknown-fields"] &&
      s.additionalProperties !== true
    ) {
      this.issue(e, `undefined field '${name}'`);
    } else if (s.type && s.type !== "object") {
      this.issue(e, `type '${celTypeName(s)}' does not support field selection`);
    }
    return undefined;
  }
}

const NUMERIC = new Set(["int", "uint", "double"]);

function scalar(type: string): StaticType {
  return { schema: { type }, isRoot: false };
}

/** The CEL scalar type of a static type, when certain; formats the apiserver binds as timestamp etc. are not. */
function celScalar(t: StaticType): string | undefined {
  const s = t?.schema;
  if (!s || s["x-kubernetes-int-or-string"] || s["x-kubernetes-preserve-unknown-fields"]) return undefined;
  if (s.type === "string" && s.format && ["date", "date-time", "duration", "byte"].includes(s.format))
    return undefined;
  switch (s.type) {
    case "integer":
      return "int";
    case "number":
      return "double";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "null":
      return "null_type";
    default:
      return undefined;
  }
}

function constType(c: { constantKind: { case: string | undefined } }): StaticType {
  switch (c.constantKind.case) {
    case "int64Value":
      return scalar("integer");
    case "doubleValue":
      return scalar("number");
    case "stringValue":
      return scalar("string");
    case "boolValue":
      return scalar("boolean");
    case "nullValue":
      return scalar("null");
    default:
      return undefined;
  }
}

function celTypeName(s: JSONSchemaProps): string {
  if (s["x-kubernetes-int-or-string"]) return "dyn";
  switch (s.type) {
    case "integer":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "array":
      return "list";
    default:
      return s.type ?? "dyn";
  }
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
