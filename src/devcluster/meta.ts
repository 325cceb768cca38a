import { randomBytes } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { deepCopy } from "../admission/index.ts";
import type { FieldError } from "./errors.ts";

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy of a stored object (every write copies the old one). */
export const clone: <T>(value: T) => T = deepCopy;

export const deepEqual = isDeepStrictEqual;

export function meta(object: Obj): Obj {
  if (!isObj(object.metadata)) object.metadata = {};
  return object.metadata as Obj;
}

/** metav1.Time: RFC 3339 in UTC with whole seconds. */
export function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
export function rfc3339Micro(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export type NameRule = "subdomain" | "label";

/** The real server's name validation (apimachinery validation.IsDNS1123Subdomain / Label). */
export function validateName(name: unknown, rule: NameRule, field = "metadata.name"): FieldError[] {
  if (typeof name !== "string" || name === "") {
    return [{ type: "FieldValueRequired", field, detail: "name or generateName is required" }];
  }
  const errors: FieldError[] = [];
  if (rule === "label") {
    if (name.length > 63) {
      errors.push({
        type: "FieldValueInvalid",
        field,
        value: name,
        detail: "must be no more than 63 characters",
      });
    }
    if (!LABEL.test(name)) {
      errors.push({
        type: "FieldValueInvalid",
        field,
        value: name,
        detail:
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      });
    }
    return errors;
  }
  if (name.length > 253) {
    errors.push({
      type: "FieldValueInvalid",
      field,
      value: name,
      detail: "must be no more than 253 characters",
    });
  }
  if (!SUBDOMAIN.test(name)) {
    errors.push({
      type: "FieldValueInvalid",
      field,
      value: name,
      detail:
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    });
  }
  return errors;
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const QUALIFIED_NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** apimachinery's IsQualifiedName, one message per rule broken, as the real server words them. */
export function qualifiedNameErrors(key: string): string[] {
  const parts = key.split("/");
  if (parts.length > 2)
    return [
      `a qualified name ${QUALIFIED_NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const [prefix, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : [undefined, parts[0]!];
  const errors: string[] = [];
  if (prefix === "") errors.push("prefix part must be non-empty");
  else if (prefix !== undefined)
    errors.push(...validateName(prefix, "subdomain").map((e) => `prefix part ${e.detail}`));
  if (name === "") errors.push("name part must be non-empty");
  else if (name.length > 63) errors.push("name part must be no more than 63 characters");
  if (!QUALIFIED_NAME.test(name)) errors.push(`name part ${QUALIFIED_NAME_RULE}`);
  return errors;
}

function validateQualifiedKey(key: string, field: string): FieldError[] {
  return qualifiedNameErrors(key).map((detail) => ({ type: "FieldValueInvalid", field, value: key, detail }));
}

/** Label and annotation keys and label values, as ValidateLabels / ValidateAnnotations check them. */
export function validateLabelsAndAnnotations(metadata: Obj): FieldError[] {
  const errors: FieldError[] = [];
  for (const which of ["labels", "annotations"] as const) {
    const map = metadata[which];
    if (map === undefined || map === null) continue;
    if (!isObj(map)) {
      errors.push({
        type: "FieldValueInvalid",
        field: `metadata.${which}`,
        value: map,
        detail: "must be a map",
      });
      continue;
    }
    for (const [key, value] of Object.entries(map)) {
      errors.push(...validateQualifiedKey(key, `metadata.${which}`));
      if (typeof value !== "string") {
        errors.push({
          type: "FieldValueInvalid",
          field: `metadata.${which}`,
          value,
          detail: "must be a string",
        });
      } else if (which === "labels" && (value.length > 63 || !LABEL_VALUE.test(value))) {
        errors.push({
          type: "FieldValueInvalid",
          field: "metadata.labels",
          value,
          detail:
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        });
      }
    }
  }
  const finalizers = metadata.finalizers;
  if (finalizers !== undefined && finalizers !== null) {
    if (!Array.isArray(finalizers) || finalizers.some((f) => typeof f !== "string")) {
      errors.push({
        type: "FieldValueInvalid",
        field: "metadata.finalizers",
        value: finalizers,
        detail: "must be a list of strings",
      });
    }
  }
  return errors;
}

const GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** The 5 random characters the real server appends to generateName. */
export function randomSuffix(): string {
  const bytes = randomBytes(5);
  let out = "";
  for (const b of bytes) out += GENERATE_ALPHABET[b % GENERATE_ALPHABET.length];
  return out;
}

/**
 * Drops the fields of `object` that are an empty map or list, as the real server's Go types do
 * (`omitempty`): a write sending `labels: {}` stores no labels, and a merge patch that removes
 * the last annotation leaves no `annotations: {}` behind.
 */
export function dropEmpty(object: Obj, fields: readonly string[]): void {
  for (const field of fields) {
    const value = object[field];
    if ((isObj(value) && Object.keys(value).length === 0) || (Array.isArray(value) && value.length === 0))
      delete object[field];
  }
}

/** ObjectMeta's maps and lists that are not stored when empty. */
export const OMITTED_WHEN_EMPTY = ["labels", "annotations", "finalizers", "ownerReferences"] as const;

export function finalizersOf(metadata: Obj): string[] {
  return Array.isArray(metadata.finalizers) ? (metadata.finalizers as string[]) : [];
}

/** The namespace's own finalizers (spec.finalizers) hold its deletion too. */
export function holdsSpecFinalizers(object: Obj): boolean {
  return (
    object.kind === "Namespace" &&
    isObj(object.spec) &&
    Array.isArray(object.spec.finalizers) &&
    object.spec.finalizers.length > 0
  );
}

/** The required ownerReference fields and the word the real server's message uses for each. */
const REQUIRED_OWNER_FIELDS = [
  ["apiVersion", "version"],
  ["kind", "kind"],
  ["name", "name"],
  ["uid", "uid"],
] as const;

/** ValidateOwnerReferences: apiVersion, kind, name and uid are required; one controller at most. */
export function validateOwnerReferences(metadata: Obj): FieldError[] {
  const refs = metadata.ownerReferences;
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) {
    return [
      { type: "FieldValueInvalid", field: "metadata.ownerReferences", value: refs, detail: "must be a list" },
    ];
  }
  const errors: FieldError[] = [];
  let controllers = 0;
  for (const ref of refs) {
    if (!isObj(ref)) {
      errors.push({
        type: "FieldValueInvalid",
        field: "metadata.ownerReferences",
        value: ref,
        detail: "must be an object",
      });
      continue;
    }
    for (const [key, what] of REQUIRED_OWNER_FIELDS) {
      if (ref[key]) continue;
      errors.push({
        type: "FieldValueInvalid",
        field: `metadata.ownerReferences.${key}`,
        value: ref[key] ?? "",
        detail: `${what} must not be empty`,
      });
    }
    if (ref.controller === true) controllers += 1;
  }
  if (controllers > 1) {
    errors.push({
      type: "FieldValueInvalid",
      field: "metadata.ownerReferences",
      value: refs,
      detail: "Only one reference can have Controller set to true",
    });
  }
  return errors;
}
