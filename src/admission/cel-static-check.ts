/**
 * The compile-time checks cel-go makes against a CRD's schema, walking the parsed expression:
 * undeclared references, fields the schema does not have, and operator overloads between operands
 * of known types. It also notes whether a rule reads oldSelf (a transition rule).
 */
import { unescapeFieldName } from "./cel-runtime.ts";
import { celScalar, celTypeName, constType, type StaticType, scalar } from "./cel-static-types.ts";
import { additionalSchema } from "./types.ts";

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

export interface ExprNode {
  id: bigint;
  exprKind: { case: string | undefined; value?: unknown };
}

const NUMERIC = new Set(["int", "uint", "double"]);

export class StaticChecker {
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
