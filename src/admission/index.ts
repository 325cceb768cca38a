/**
 * Admission of custom resources against their CRD version's openAPIV3Schema, as the
 * apiextensions-apiserver does it: prune unknown fields, drop non-nullable nulls, apply
 * structural defaults, validate (kube-openapi + list types, ratcheting unchanged values on
 * update), then evaluate x-kubernetes-validations CEL rules unless a blocking error was found;
 * and the checks a CRD's own schema must pass to be served.
 * Pure functions over JSON values. Owns no HTTP, no storage and no CRD of the product: the
 * devcluster turns `causes` into a 422 Status, and `svc-operator plan` admits manifests offline.
 */
import { CelValidator, hasRules } from "./cel-validate.ts";
import { checkCrdErrors } from "./crd-check.ts";
import { type FieldError, fieldErrors, ROOT, toCause } from "./field-error.ts";
import { sanitizeSchema } from "./schema-shape.ts";
import { SchemaValidator, validateListTypes } from "./schema-validate.ts";
import { applyDefaults, prune, pruneNulls } from "./structural.ts";
import { deepCopy, deepEqual, type JSONSchemaProps, type StatusCause } from "./types.ts";

export type { JSONSchemaProps, StatusCause, ValidationRule } from "./types.ts";
/** The copy admission works on, for callers that store JSON objects and copy them on every write. */
export { deepCopy };

export interface AdmissionInput {
  /** The CRD version's spec.versions[i].schema.openAPIV3Schema. */
  schema: JSONSchemaProps;
  /** Incoming object (already has apiVersion/kind/metadata). */
  object: Record<string, unknown>;
  /** Present on update/patch: enables CEL transition rules (oldSelf) and ratcheting. */
  oldObject?: Record<string, unknown>;
  /**
   * The old object passed every CEL rule of this schema when it was stored (the previous
   * result's `rulesPassed`): rules over the parts this update leaves unchanged are not run again.
   */
  oldPassed?: boolean;
  /** Informational. */
  subresource?: "status";
  /**
   * Errors the server found before the schema (in the object's metadata) block the CEL rules as
   * the schema's own blocking errors do: the rules are not run, and the result says so.
   */
  blocked?: boolean;
  /**
   * The caller hands `object` over: admission prunes and defaults it in place instead of
   * working on a deep copy (the result's object is then `object` itself).
   */
  owned?: boolean;
}

export interface AdmissionResult {
  /** Pruned and defaulted copy of the input object (the input is never mutated unless `owned`). */
  object: Record<string, unknown>;
  /** Empty = admitted. */
  causes: StatusCause[];
  /** Paths of the fields pruning dropped ("spec.foo"): the server's `unknown field "spec.foo"` warnings. */
  unknownFields: string[];
  /** Failures the server ratchets into warnings (rules failing on values unchanged by an update). */
  warnings: string[];
  /** Every CEL rule passed: no error, no ratcheted warning (true when the schema has none). */
  rulesPassed: boolean;
}

/** Error types after which the server skips CEL rules (hasBlockingErr). */
export const BLOCKING = new Set([
  "FieldValueNotSupported",
  "FieldValueRequired",
  "FieldValueTooLong",
  "FieldValueTooMany",
  "FieldValueTypeInvalid",
]);

/** Drops duplicate messages like field.ErrorList.ToAggregate does. */
function dedupe(errors: FieldError[]): StatusCause[] {
  const seen = new Set<string>();
  const out: StatusCause[] = [];
  for (const e of errors) {
    const cause = toCause(e);
    const key = `${cause.field}: ${cause.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(cause);
  }
  return out;
}

export function admit(input: AdmissionInput): AdmissionResult {
  const schema = sanitizeSchema(input.schema);
  const object = input.owned ? input.object : deepCopy(input.object);
  const unknownFields: string[] = [];
  prune(object, schema, true, "", unknownFields);
  pruneNulls(object, schema);
  applyDefaults(object, schema);

  const old = input.oldObject === undefined ? undefined : { value: input.oldObject };
  const validator = new SchemaValidator();
  validator.validate(schema, object, "", old);
  const errors = validator.errors;
  validateListTypes(schema, object, ROOT, errors);

  const warnings: string[] = [];
  let rulesPassed = true;
  if (hasRules(schema)) {
    rulesPassed = false;
    if (input.blocked === true || errors.some((e) => BLOCKING.has(e.type))) {
      errors.push(
        fieldErrors.invalid(
          ROOT,
          null,
          "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ),
      );
    } else {
      const cel = new CelValidator({ oldPassed: input.oldPassed === true && old !== undefined });
      const unchanged = input.oldObject !== undefined && deepEqual(input.oldObject, object);
      cel.validate(schema, object, ROOT, { old, unchanged }, true);
      errors.push(...cel.errors);
      warnings.push(...cel.warnings);
      rulesPassed = cel.errors.length === 0 && cel.warnings.length === 0;
    }
  }
  return { object, causes: dedupe(errors), unknownFields, warnings, rulesPassed };
}

/** Validates that a CRD's own definition and schemas are structural enough to serve. */
export function checkCrd(crd: Record<string, unknown>): StatusCause[] {
  return dedupe(checkCrdErrors(crd));
}
