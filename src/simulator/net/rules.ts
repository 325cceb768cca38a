/**
 * Parameter rules of spec section 4 as data, and one checker that turns a violation into a
 * message naming the parameter in bracket notation (`route[next_hop_ip]`), the way a client
 * wrote it. Conditional rules that span several members are plain functions beside the
 * resources; this module covers what one member can say about itself.
 */

export type ParamType = "string" | "hash" | "array" | "integer" | "string_hash";

export interface Format {
  /** Human wording used in the error, e.g. "digits only". */
  readonly description: string;
  test(value: string): boolean;
}

export interface MemberRule {
  readonly type: ParamType;
  readonly required?: boolean;
  /** Allowed values (exact, case-sensitive). */
  readonly values?: readonly string[];
  readonly format?: Format;
  /** May be an empty string. Defaults to false, as in the spec's "blank" column. */
  readonly blank?: boolean;
  /** Rules of the members of a Hash. */
  readonly members?: Readonly<Record<string, MemberRule>>;
  /** Rule of each element of an Array (strings when absent). */
  readonly element?: Format;
}

/** One rejected parameter: `param` in bracket notation and the rule it broke. */
export class ParamViolation {
  readonly param: string;
  readonly rule: string;
  constructor(param: string, rule: string) {
    this.param = param;
    this.rule = rule;
  }
  get message(): string {
    return `${this.param} ${this.rule}`;
  }
}

export const digitsOnly: Format = { description: "digits only", test: (v) => /^\d+$/.test(v) };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

/** JSON bodies may carry numbers and booleans where the form encoding carries strings. */
function asString(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return undefined;
}

function describeValues(values: readonly string[]): string {
  return values.map((v) => `'${v}'`).join(", ");
}

function checkMember(name: string, value: unknown, rule: MemberRule): ParamViolation | undefined {
  if (value === undefined) return rule.required ? new ParamViolation(name, "is required") : undefined;
  if (value === null) {
    if (rule.blank) return undefined;
    return new ParamViolation(name, "must not be blank");
  }
  switch (rule.type) {
    case "hash":
    case "string_hash": {
      if (!isPlainObject(value)) return new ParamViolation(name, "must be a Hash");
      if (!rule.blank && isBlank(value)) return new ParamViolation(name, "must not be blank");
      if (rule.type === "string_hash") {
        for (const [key, v] of Object.entries(value)) {
          if (asString(v) === undefined) return new ParamViolation(`${name}[${key}]`, "must be a String");
        }
        return undefined;
      }
      return checkHash(name, value, rule.members ?? {});
    }
    case "array": {
      if (!Array.isArray(value)) return new ParamViolation(name, "must be an Array");
      if (!rule.blank && value.length === 0) return new ParamViolation(name, "must not be blank");
      for (const element of value) {
        const text = asString(element);
        if (text === undefined) return new ParamViolation(`${name}[]`, "must be a String");
        if (rule.element && !rule.element.test(text)) {
          return new ParamViolation(`${name}[]`, `must be ${rule.element.description} (got '${text}')`);
        }
      }
      return undefined;
    }
    case "integer": {
      const text = asString(value);
      if (text === undefined || !/^-?\d+$/.test(text.trim())) {
        return new ParamViolation(name, "must be an Integer");
      }
      return undefined;
    }
    case "string": {
      const text = asString(value);
      if (text === undefined) return new ParamViolation(name, "must be a String");
      if (isBlank(text)) return rule.blank ? undefined : new ParamViolation(name, "must not be blank");
      if (rule.values && !rule.values.includes(text)) {
        return new ParamViolation(name, `must be one of ${describeValues(rule.values)} (got '${text}')`);
      }
      if (rule.format && !rule.format.test(text)) {
        return new ParamViolation(name, `must be ${rule.format.description} (got '${text}')`);
      }
      return undefined;
    }
  }
}

function checkHash(
  name: string,
  value: Record<string, unknown>,
  members: Readonly<Record<string, MemberRule>>,
): ParamViolation | undefined {
  for (const key of Object.keys(value)) {
    if (!(key in members)) return new ParamViolation(`${name}[${key}]`, "is not allowed");
  }
  for (const [key, rule] of Object.entries(members)) {
    const violation = checkMember(`${name}[${key}]`, value[key], rule);
    if (violation) return violation;
  }
  return undefined;
}

/**
 * Checks the wrapper Hash `wrapper` (e.g. `route`) of merged request parameters.
 * Top-level parameters other than the wrapper are left alone: clients send `view`,
 * `account_id` and the like beside it.
 */
export function checkWrapper(
  params: Readonly<Record<string, unknown>>,
  wrapper: string,
  rule: MemberRule,
): ParamViolation | undefined {
  return checkMember(wrapper, params[wrapper], rule);
}

/** A required, non-blank wrapper Hash with the given members. */
export function wrapperRule(members: Readonly<Record<string, MemberRule>>, required = true): MemberRule {
  return { type: "hash", required, members };
}

/** Normalises a checked String member: numbers and booleans from JSON become their text. */
export function stringOf(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : asString(value);
}
