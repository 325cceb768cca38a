/**
 * k8s.io/apimachinery field.Error, rendered the way the apiserver renders StatusCause messages
 * (Kubernetes 1.33+ wording: "Too long: may not be more than N bytes", JSON for composite values).
 */
import type { StatusCause } from "./types.ts";

export type ErrorType =
  | "FieldValueNotFound"
  | "FieldValueRequired"
  | "FieldValueDuplicate"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "InternalError"
  | "FieldValueTypeInvalid";

const TYPE_TEXT: Record<ErrorType, string> = {
  FieldValueNotFound: "Not found",
  FieldValueRequired: "Required value",
  FieldValueDuplicate: "Duplicate value",
  FieldValueInvalid: "Invalid value",
  FieldValueNotSupported: "Unsupported value",
  FieldValueForbidden: "Forbidden",
  FieldValueTooLong: "Too long",
  FieldValueTooMany: "Too many",
  InternalError: "Internal error",
  FieldValueTypeInvalid: "Invalid value",
};

/** Marks a value that must not be printed (field.omitValue). */
export const OMIT = Symbol("omit");

/** A Go float64 printed with %v (strconv 'g', shortest). */
export class GoFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
  toString(): string {
    return formatGoFloat(this.value);
  }
}

/** A value printed verbatim (Go's %#v of a struct, as the server prints some values). */
export class GoSyntax {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

export interface FieldError {
  type: ErrorType;
  /** field.Path.String(): "<nil>" for the root. */
  field: string;
  value: unknown;
  detail: string;
}

export const ROOT = "<nil>";

/** strconv.Quote, close enough: JSON escaping without escaping printable non-ASCII. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

export function formatGoFloat(v: number): string {
  if (!Number.isFinite(v)) return v > 0 ? "+Inf" : v < 0 ? "-Inf" : "NaN";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const exp = Number(v.toExponential().split("e")[1]);
  // strconv.FormatFloat(v, 'g', -1, 64): shortest digits, exponent form outside [1e-4, 1e6).
  const eprec = 6;
  if (exp < -4 || exp >= eprec) {
    const [mant, e] = v.toExponential().split("e") as [string, string];
    const n = Number(e);
    const sign = n < 0 ? "-" : "+";
    const abs = Math.abs(n);
    return `${mant}e${sign}${abs < 10 ? `0${abs}` : abs}`;
  }
  return String(v);
}

function renderValue(value: unknown): string {
  if (value === OMIT) return "";
  if (value === null || value === undefined) return "null";
  if (value instanceof GoFloat || value instanceof GoSyntax) return value.toString();
  switch (typeof value) {
    case "string":
      return goQuote(value);
    case "number":
      return Number.isInteger(value) ? String(value) : formatGoFloat(value);
    case "bigint":
    case "boolean":
      return String(value);
    default:
      return JSON.stringify(value);
  }
}

/** field.Error.ErrorBody(). */
export function errorBody(e: FieldError): string {
  let s: string;
  if (
    e.type === "FieldValueRequired" ||
    e.type === "FieldValueForbidden" ||
    e.type === "FieldValueTooLong" ||
    e.type === "InternalError" ||
    e.value === OMIT
  ) {
    s = TYPE_TEXT[e.type];
  } else {
    s = `${TYPE_TEXT[e.type]}: ${renderValue(e.value)}`;
  }
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export function toCause(e: FieldError): StatusCause {
  return { reason: e.type, message: errorBody(e), field: e.field };
}

/** Joins path segments the way field.Path prints them. */
export function childPath(parent: string, name: string): string {
  return parent === ROOT || parent === "" ? name : `${parent}.${name}`;
}
export function indexPath(parent: string, i: number): string {
  return `${parent === ROOT ? "" : parent}[${i}]`;
}
export function keyPath(parent: string, key: string): string {
  return `${parent === ROOT ? "" : parent}[${key}]`;
}

export const fieldErrors = {
  required: (field: string, detail = ""): FieldError => ({
    type: "FieldValueRequired",
    field,
    value: "",
    detail,
  }),
  forbidden: (field: string, detail: string): FieldError => ({
    type: "FieldValueForbidden",
    field,
    value: "",
    detail,
  }),
  invalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: "FieldValueInvalid",
    field,
    value,
    detail,
  }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: "FieldValueTypeInvalid",
    field,
    value,
    detail,
  }),
  duplicate: (field: string, value: unknown): FieldError => ({
    type: "FieldValueDuplicate",
    field,
    value,
    detail: "",
  }),
  notSupported: (field: string, value: unknown, valid: string[]): FieldError => ({
    type: "FieldValueNotSupported",
    field,
    value,
    detail: valid.length ? `supported values: ${valid.map(goQuote).join(", ")}` : "",
  }),
  tooLong: (field: string, max: number): FieldError => ({
    type: "FieldValueTooLong",
    field,
    value: "",
    detail: max >= 0 ? `may not be more than ${max} ${max === 1 ? "byte" : "bytes"}` : "value is too long",
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: "FieldValueTooMany",
    field,
    value: actual >= 0 ? actual : OMIT,
    detail: max >= 0 ? `must have at most ${max} items` : "has too many items",
  }),
  internal: (field: string, detail: string): FieldError => ({
    type: "InternalError",
    field,
    value: null,
    detail,
  }),
};
