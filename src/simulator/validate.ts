import { parameterError } from "./errors.ts";
import { isPlainObject, isUploadedFile, type Params } from "./params.ts";

/**
 * A declarative rule for one parameter, after the spec's parameter tables
 * (name; required; type; allowed values or format; blank allowed).
 */
export interface ParamRule {
  type: "String" | "Hash" | "Array" | "Integer" | "File";
  required?: boolean;
  /** Allowed values (String, or each element of an Array of Strings). */
  values?: readonly string[];
  /** A format the value must match, with the words that name the rule in the error. */
  format?: { pattern: RegExp; description: string };
  /** May the value be an empty string (or an empty Hash/Array)? Default true, as in the spec tables. */
  blank?: boolean;
  /** Hash members. */
  members?: Record<string, ParamRule>;
  /** What to do with Hash members not listed: `reject` (400, the default) or `ignore`. */
  unknown?: "reject" | "ignore";
  /** Array elements. */
  items?: ParamRule;
  /** Integer bounds (inclusive). */
  min?: number;
  max?: number;
}

export type ParamSpec = Record<string, ParamRule>;

/** Formats from the spec, shared by resources. */
export const formats = {
  cidr: {
    pattern: /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/\d{1,2}$/,
    description: "an IPv4 CIDR block (dotted quad, slash, 1 to 2 digit prefix)",
  },
  ipv4: { pattern: /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/, description: "an IPv4 dotted quad" },
  digits: { pattern: /^\d+$/, description: "digits only" },
  booleanString: { pattern: /^(true|false)$/, description: "true or false" },
  device: { pattern: /^\/dev\/xvd[bcefghij]$/, description: "/dev/xvd followed by one of b c e f g h i j" },
  auditDate: {
    pattern: /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/,
    description: "YYYY/MM/DD HH:MM:SS [+/-]ZZZZ",
  },
} as const;

/**
 * Checks `params` against `spec` and answers the validated (and coerced) values of the
 * listed top-level parameters. Throws a 400 `ParameterError: <name> <rule>` naming the first
 * failing parameter in bracket notation, e.g. `ParameterError: deployment[name] is required`.
 * Top-level parameters that are not in the spec are ignored (clients send extras such as
 * `account_id` or `format`); unknown members of wrapper Hashes are refused unless the rule
 * says `unknown: "ignore"`.
 */
export function validateParams<T = Params>(params: Params, spec: ParamSpec): T {
  const out: Params = {};
  for (const [name, rule] of Object.entries(spec)) {
    const value = checkValue(params[name], rule, name);
    if (value !== undefined) out[name] = value;
  }
  return out as T;
}

function checkValue(value: unknown, rule: ParamRule, name: string): unknown {
  if (value === undefined || value === null) {
    if (rule.required) throw parameterError(`${name} is required`);
    return undefined;
  }
  switch (rule.type) {
    case "String":
      return checkString(value, rule, name);
    case "Integer":
      return checkInteger(value, rule, name);
    case "Hash":
      return checkHash(value, rule, name);
    case "Array":
      return checkArray(value, rule, name);
    case "File":
      if (!isUploadedFile(value)) throw parameterError(`${name} must be a file upload (multipart file part)`);
      return value;
  }
}

function checkString(value: unknown, rule: ParamRule, name: string): string {
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "number" || typeof value === "boolean") text = String(value);
  else throw parameterError(`${name} must be a String`);
  // Blank as the real (Rails) service reads it: empty or whitespace only.
  if (text.trim() === "") {
    if (rule.blank === false) throw parameterError(`${name} must not be blank`);
    if (text === "") return text;
  }
  if (rule.values && !rule.values.includes(text)) {
    throw parameterError(`${name} must be one of ${rule.values.join(", ")} (got '${text}')`);
  }
  if (rule.format && !rule.format.pattern.test(text)) {
    throw parameterError(`${name} must be ${rule.format.description} (got '${text}')`);
  }
  return text;
}

function checkInteger(value: unknown, rule: ParamRule, name: string): number {
  let number: number;
  if (typeof value === "number" && Number.isInteger(value)) number = value;
  else if (typeof value === "string" && /^-?\d+$/.test(value)) number = Number(value);
  else throw parameterError(`${name} must be an Integer`);
  if (rule.min !== undefined && number < rule.min) {
    throw parameterError(`${name} must be between ${rule.min} and ${rule.max ?? "any"} (got ${number})`);
  }
  if (rule.max !== undefined && number > rule.max) {
    throw parameterError(`${name} must be between ${rule.min ?? "any"} and ${rule.max} (got ${number})`);
  }
  return number;
}

function checkHash(value: unknown, rule: ParamRule, name: string): Params {
  if (value === "" && rule.blank !== false) return {};
  if (!isPlainObject(value)) throw parameterError(`${name} must be a Hash`);
  if (rule.blank === false && Object.keys(value).length === 0)
    throw parameterError(`${name} must not be blank`);
  if (!rule.members) return value;
  const out: Params = {};
  for (const [member, memberRule] of Object.entries(rule.members)) {
    const checked = checkValue(value[member], memberRule, `${name}[${member}]`);
    if (checked !== undefined) out[member] = checked;
  }
  if (rule.unknown !== "ignore") {
    for (const member of Object.keys(value)) {
      if (!Object.hasOwn(rule.members, member)) throw parameterError(`${name}[${member}] is not allowed`);
    }
  }
  return out;
}

function checkArray(value: unknown, rule: ParamRule, name: string): unknown[] {
  // A form body cannot express an empty array; `x[]=` (one blank element) or `x=` stands for it.
  if (value === "") return [];
  if (!Array.isArray(value)) throw parameterError(`${name} must be an Array`);
  if (rule.blank === false && value.length === 0) throw parameterError(`${name} must not be blank`);
  if (!rule.items) return value;
  const items = rule.items;
  return value.map((element, index) =>
    checkValue(element, { ...items, required: true }, `${name}[${index}]`),
  );
}
