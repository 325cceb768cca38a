/**
 * Walks an object along its structural schema and evaluates every x-kubernetes-validations rule
 * as apiextensions-apiserver's schema/cel Validator does: rules never see null values, transition
 * rules (oldSelf) run only where an old value correlates (object fields, map values unless
 * mapType atomic, listType=map items by key), and failures of unchanged values are ratcheted.
 */
import { compileRule } from "./cel-compile.ts";
import { evaluate, toCel } from "./cel-runtime.ts";
import {
  childPath,
  errorBody,
  type FieldError,
  fieldErrors,
  indexPath,
  keyPath,
  ROOT,
} from "./field-error.ts";
import { additionalSchema, deepEqual, isObject, type JSONSchemaProps, type ValidationRule } from "./types.ts";

type Old = { value: unknown } | undefined;

/** Ratcheting state: whether the nearest correlatable node is unchanged from its old value. */
interface Walk {
  old: Old;
  unchanged: boolean;
}

/**
 * Whether a rule of the schema's subtree (its properties, additional properties, items, allOf)
 * passes `test`. Schemas are immutable once served (sanitizeSchema caches them per CRD version),
 * so each answer is computed once per schema object instead of walking the schema on every write.
 */
function anyRule(test: (r: ValidationRule) => boolean): (s: JSONSchemaProps | undefined) => boolean {
  const known = new WeakMap<JSONSchemaProps, boolean>();
  const walk = (s: JSONSchemaProps | undefined): boolean => {
    if (!s) return false;
    let answer = known.get(s);
    if (answer === undefined) {
      answer =
        (s["x-kubernetes-validations"] ?? []).some(test) ||
        Object.values(s.properties ?? {}).some(walk) ||
        walk(additionalSchema(s)) ||
        walk(s.items) ||
        (s.allOf ?? []).some(walk);
      known.set(s, answer);
    }
    return answer;
  };
  return walk;
}

export const hasRules = anyRule(() => true);

const readsOldSelf = (r: ValidationRule) =>
  r.optionalOldSelf === true || /\boldSelf\b/.test(`${r.rule} ${r.messageExpression ?? ""}`);

/**
 * The immutability rules CRDs are written with (`self == oldSelf`, and the per-field form
 * `has(oldSelf.f) == has(self.f) && (!has(self.f) || self.f == oldSelf.f)`): true whenever self
 * equals oldSelf, so an unchanged value need not evaluate them.
 */
const IMMUTABLE =
  /^\s*(?:self\s*==\s*oldSelf|has\(oldSelf\.(\w+)\)\s*==\s*has\(self\.\1\)\s*&&\s*\(!has\(self\.\1\)\s*\|\|\s*self\.\1\s*==\s*oldSelf\.\1\))\s*$/;
const checksChangeOfUnchanged = (r: ValidationRule) => readsOldSelf(r) && !IMMUTABLE.test(r.rule);

/**
 * Whether a rule in the schema's subtree may answer differently on an unchanged value than it did
 * on the old one: one that reads oldSelf, by its text (a rule that only names it in a string
 * counts too, which costs a shortcut, never a wrong answer), other than the immutability forms.
 */
export const hasTransitionRules = anyRule(checksChangeOfUnchanged);

/** Parses a rule's fieldPath (".a.b", ".m['key']") into field-path segments relative to the node. */
export function parseFieldPath(
  fieldPath: string,
  schema: JSONSchemaProps,
): { ok: true; append: (base: string) => string } | { ok: false; error: string } {
  const re = /\.([A-Za-z0-9_$-]+)|\['((?:[^'\\]|\\.)*)'\]/y;
  const steps: ((p: string) => string)[] = [];
  let s: JSONSchemaProps | undefined = schema;
  let pos = 0;
  while (pos < fieldPath.length) {
    re.lastIndex = pos;
    const m = re.exec(fieldPath);
    if (!m) return { ok: false, error: `expected [ or . but got: ${fieldPath.slice(pos)}` };
    pos = re.lastIndex;
    const name = m[1] ?? m[2]!.replace(/\\(.)/g, "$1");
    if (!s) return { ok: false, error: "does not refer to a valid field" };
    if (s.properties) {
      s = s.properties[name];
      if (!s) return { ok: false, error: "does not refer to a valid field" };
      steps.push((p) => childPath(p, name));
    } else if (additionalSchema(s)) {
      s = additionalSchema(s);
      steps.push((p) => keyPath(p, name));
    } else {
      return { ok: false, error: "does not refer to a valid field" };
    }
  }
  return { ok: true, append: (base) => steps.reduce((p, step) => step(p), base) };
}

function ruleErrorString(rule: ValidationRule): string {
  return rule.message?.trim() ? rule.message.trim() : rule.rule.trim();
}

function ruleMessageOrDefault(rule: ValidationRule): string {
  return rule.message?.trim() ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
}

function errorForReason(field: string, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case "FieldValueForbidden":
      return fieldErrors.forbidden(field, detail);
    case "FieldValueRequired":
      return fieldErrors.required(field, detail);
    case "FieldValueDuplicate":
      return fieldErrors.duplicate(field, type);
    default:
      return fieldErrors.invalid(field, type, detail);
  }
}

export class CelValidator {
  readonly errors: FieldError[] = [];
  /** Failures of unchanged values: the real server returns them as warnings. */
  readonly warnings: string[] = [];
  private readonly oldPassed: boolean;

  /**
   * `oldPassed`: the old object passed every rule of this schema (no error, no warning) when it
   * was stored. A subtree the update leaves unchanged then passes them again: only its rules
   * that read oldSelf run (self and oldSelf are now equal, which they were not before), so a
   * status write no longer evaluates every rule of an unchanged spec.
   */
  constructor(options: { oldPassed?: boolean } = {}) {
    this.oldPassed = options.oldPassed === true;
  }

  validate(s: JSONSchemaProps, data: unknown, path: string, walk: Walk, isResourceRoot: boolean): void {
    if (data === null || data === undefined) return;
    const passedBefore = this.oldPassed && walk.unchanged && walk.old !== undefined;
    if (passedBefore && !hasTransitionRules(s)) return;
    const rules = (r: ValidationRule[] | undefined = []) =>
      passedBefore ? r.filter(checksChangeOfUnchanged) : r;
    this.evaluateRules(s, rules(s["x-kubernetes-validations"]), data, path, walk, isResourceRoot);
    for (const sub of s.allOf ?? []) {
      // allOf rules see the node's full schema; their errors are never ratcheted.
      const merged = { ...s, "x-kubernetes-validations": sub["x-kubernetes-validations"] };
      this.evaluateRules(
        merged,
        rules(sub["x-kubernetes-validations"]),
        data,
        path,
        { ...walk, unchanged: false },
        isResourceRoot,
      );
    }
    if (Array.isArray(data) && s.items) {
      const items = s.items;
      const keys =
        s["x-kubernetes-list-type"] === "map" ? (s["x-kubernetes-list-map-keys"] ?? []) : undefined;
      const oldList = walk.old && Array.isArray(walk.old.value) ? walk.old.value : undefined;
      data.forEach((item, i) => {
        let old: Old;
        if (keys && oldList && isObject(item)) {
          const match = oldList.find((o) => isObject(o) && keys.every((k) => deepEqual(o[k], item[k])));
          if (match !== undefined) old = { value: match };
        }
        const child: Walk = old
          ? { old, unchanged: deepEqual(old.value, item) }
          : { old, unchanged: walk.unchanged };
        this.validate(
          items,
          item,
          indexPath(path, i),
          child,
          items["x-kubernetes-embedded-resource"] === true,
        );
      });
    } else if (isObject(data)) {
      const oldObj = walk.old && isObject(walk.old.value) ? walk.old.value : undefined;
      const childWalk = (key: string, correlatable: boolean): Walk => {
        if (correlatable && oldObj && Object.hasOwn(oldObj, key)) {
          return { old: { value: oldObj[key] }, unchanged: deepEqual(oldObj[key], data[key]) };
        }
        return { old: undefined, unchanged: walk.unchanged };
      };
      const ap = additionalSchema(s);
      const props = s.properties ?? {};
      for (const [key, value] of Object.entries(data)) {
        const prop = props[key];
        if (prop) {
          this.validate(
            prop,
            value,
            childPath(path, key),
            childWalk(key, true),
            prop["x-kubernetes-embedded-resource"] === true,
          );
        } else if (ap) {
          const correlatable = s["x-kubernetes-map-type"] !== "atomic";
          this.validate(
            ap,
            value,
            keyPath(path, key),
            childWalk(key, correlatable),
            ap["x-kubernetes-embedded-resource"] === true,
          );
        }
      }
    }
  }

  private evaluateRules(
    s: JSONSchemaProps,
    rules: ValidationRule[],
    data: unknown,
    path: string,
    walk: Walk,
    isResourceRoot: boolean,
  ): void {
    if (rules.length === 0) return;
    const type = s["x-kubernetes-int-or-string"] ? "" : (s.type ?? "");
    const self = toCel(data, s, isResourceRoot);
    const oldSelf = walk.old ? toCel(walk.old.value, s, isResourceRoot) : undefined;
    for (const rule of rules) {
      const compiled = compileRule(rule, s, isResourceRoot);
      if (compiled.error || !compiled.program) {
        this.errors.push(fieldErrors.invalid(path, type, `rule compile error: ${compiled.error}`));
        continue;
      }
      if (compiled.usesOldSelf && oldSelf === undefined) continue; // transition rules need an old value
      const bindings: Record<string, unknown> = { self };
      if (oldSelf !== undefined) bindings.oldSelf = oldSelf;
      const result = evaluate(compiled.program, bindings);
      if (!result.ok) {
        const detail = result.error.startsWith("no such overload")
          ? `'${result.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`
          : `${result.error} evaluating rule: ${ruleErrorString(rule)}`;
        this.errors.push(fieldErrors.invalid(path, type, detail));
        continue;
      }
      if (result.value === true) continue;
      let field = path;
      if (rule.fieldPath) {
        const fp = parseFieldPath(rule.fieldPath, s);
        if (fp.ok) field = fp.append(path);
      }
      let detail = ruleMessageOrDefault(rule);
      if (compiled.messageProgram) {
        const m = evaluate(compiled.messageProgram, bindings);
        if (m.ok && typeof m.value === "string" && m.value.trim() !== "" && !m.value.includes("\n")) {
          detail = m.value.trim();
        }
      }
      const error = errorForReason(field === "" ? ROOT : field, type, detail, rule.reason);
      if (!compiled.usesOldSelf && walk.unchanged) {
        this.warnings.push(`${error.field}: ${errorBody(error)}`); // field.Error.Error(), as warning.AddWarning gets it
      } else {
        this.errors.push(error);
      }
    }
  }
}
