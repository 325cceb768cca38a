/**
 * OpenAPI v3 value validation as k8s.io/kube-openapi's SchemaValidator does it for custom
 * resources, converted to field errors the way apiextensions-apiserver's
 * kubeOpenAPIResultToFieldErrors does (same reasons, messages and "spec.a[0].b" paths).
 *
 * On update, errors in parts of the object equal to their old value are dropped
 * (CRDValidationRatcheting, on by default since Kubernetes 1.30).
 */
import { type FieldError, fieldErrors, goQuote, ROOT } from "./field-error.ts";
import { supportedFormat } from "./formats.ts";
import { checkNumber, checkString, checkStringFormat, fieldOf, IN } from "./scalar-checks.ts";
import { additionalSchema, deepEqual, isObject, type JSONSchemaProps } from "./types.ts";

export { validateListTypes } from "./list-types.ts";

/** The old value at the same place, when the place is correlatable. */
type Old = { value: unknown } | undefined;

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "object") return "object";
  return typeof v; // string | boolean
}

function typesOf(s: JSONSchemaProps): string[] {
  if (s["x-kubernetes-int-or-string"]) return ["integer", "string"];
  return s.type ? [s.type] : [];
}

function enumValues(values: unknown[]): string[] {
  return values.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
}

/** List items are correlated with the old list only for listType map (by keys) and set (by value). */
export function correlateItem(s: JSONSchemaProps, item: unknown, oldList: unknown): Old {
  if (!Array.isArray(oldList)) return undefined;
  const listType = s["x-kubernetes-list-type"];
  if (listType === "set") return oldList.some((o) => deepEqual(o, item)) ? { value: item } : undefined;
  if (listType === "map" && isObject(item)) {
    const keys = s["x-kubernetes-list-map-keys"] ?? [];
    const match = oldList.find((o) => isObject(o) && keys.every((k) => deepEqual(o[k], item[k])));
    return match === undefined ? undefined : { value: match };
  }
  return undefined;
}

export class SchemaValidator {
  readonly errors: FieldError[] = [];

  validate(s: JSONSchemaProps, data: unknown, path: string, old: Old): void {
    if (old !== undefined && deepEqual(old.value, data)) return; // ratcheting
    if (data === null || data === undefined) {
      this.checkType(s, null, path);
      this.checkEnum(s, null, path);
      return;
    }
    this.checkType(s, data, path);
    this.checkComposition(s, data, path);
    if (typeof data === "string") {
      checkString(s, data, path, this.errors);
      checkStringFormat(s, data, path, this.errors);
    }
    if (typeof data === "number") checkNumber(s, data, path, this.errors);
    if (Array.isArray(data)) this.checkArray(s, data, path, old);
    this.checkEnum(s, data, path);
    if (isObject(data)) this.checkObject(s, data, path, old);
  }

  private checkType(s: JSONSchemaProps, data: unknown, path: string): void {
    const types = typesOf(s);
    if (types.length === 0) return;
    const want = types.join(",");
    if (data === null) {
      if (!types.includes("null") && !s.nullable) {
        this.errors.push(
          fieldErrors.typeInvalid(fieldOf(path), "null", `${path} in ${IN} must be of type ${want}: "null"`),
        );
      }
      return;
    }
    const actual = jsonType(data);
    const isIntFloat = actual === "integer" && types.includes("number");
    // kube-openapi's type validator accepts any string or array for a non-numeric type with a
    // (supported) format, leaving strings to the format check: an array given to a
    // `type: string, format: date-time` field passes, on the real server too.
    if (
      !types.includes("number") &&
      !types.includes("integer") &&
      supportedFormat(s.format) &&
      (actual === "string" || actual === "array")
    ) {
      return;
    }
    if (!(types.includes(actual) || isIntFloat)) {
      this.errors.push(
        fieldErrors.typeInvalid(
          fieldOf(path),
          actual,
          `${path} in ${IN} must be of type ${want}: ${goQuote(actual)}`,
        ),
      );
    }
  }

  /** allOf / anyOf / oneOf / not, as value validations (structural schemas allow nothing else there). */
  private checkComposition(s: JSONSchemaProps, data: unknown, path: string): void {
    const run = (sub: JSONSchemaProps): FieldError[] => {
      const v = new SchemaValidator();
      v.validate(sub, data, path, undefined);
      return v.errors;
    };
    const composite = (msg: string) => this.errors.push(fieldErrors.invalid(ROOT, "", msg));
    if (s.anyOf?.length) {
      let best: FieldError[] | undefined;
      let ok = false;
      for (const sub of s.anyOf) {
        const errs = run(sub);
        if (errs.length === 0) {
          ok = true;
          break;
        }
        if (best === undefined || errs.length < best.length) best = errs;
      }
      if (!ok) {
        composite(`${goQuote(path)} must validate at least one schema (anyOf)`);
        this.errors.push(...(best ?? []));
      }
    }
    if (s.oneOf?.length) {
      let valid = 0;
      let best: FieldError[] | undefined;
      for (const sub of s.oneOf) {
        const errs = run(sub);
        if (errs.length === 0) valid++;
        else if (valid === 0 && (best === undefined || errs.length < best.length)) best = errs;
      }
      if (valid !== 1) {
        const extra = valid === 0 ? "Found none valid" : `Found ${valid} valid alternatives`;
        composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${extra}`);
        if (valid === 0) this.errors.push(...(best ?? []));
      }
    }
    if (s.allOf?.length) {
      let valid = 0;
      for (const sub of s.allOf) {
        const errs = run(sub);
        if (errs.length === 0) valid++;
        this.errors.push(...errs);
      }
      if (valid !== s.allOf.length) {
        composite(
          `${goQuote(path)} must validate all the schemas (allOf)${valid === 0 ? ". None validated" : ""}`,
        );
      }
    }
    if (s.not && run(s.not).length === 0) composite(`${goQuote(path)} must not validate the schema (not)`);
  }

  private checkArray(s: JSONSchemaProps, data: unknown[], path: string, old: Old): void {
    if (s.items) {
      const items = s.items;
      data.forEach((item, i) => {
        this.validate(items, item, `${path}[${i}]`, old ? correlateItem(s, item, old.value) : undefined);
      });
    }
    const field = fieldOf(path);
    if (s.minItems !== undefined && data.length < s.minItems) {
      this.errors.push(
        fieldErrors.invalid(field, data.length, `${path} in ${IN} should have at least ${s.minItems} items`),
      );
    }
    if (s.maxItems !== undefined && data.length > s.maxItems) {
      this.errors.push(fieldErrors.tooMany(field, data.length, s.maxItems));
    }
    if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => deepEqual(u, v)))) {
      this.errors.push(fieldErrors.invalid(field, "", `${path} in ${IN} shouldn't contain duplicates`));
    }
  }

  private checkEnum(s: JSONSchemaProps, data: unknown, path: string): void {
    if (!s.enum?.length) return;
    if (data !== null && s.enum.some((e) => deepEqual(e, data))) return;
    this.errors.push(fieldErrors.notSupported(fieldOf(path), data, enumValues(s.enum)));
  }

  private checkObject(s: JSONSchemaProps, data: Record<string, unknown>, path: string, old: Old): void {
    const field = fieldOf(path);
    const count = Object.keys(data).length;
    if (s.minProperties !== undefined && count < s.minProperties) {
      this.errors.push(
        fieldErrors.invalid(
          field,
          count,
          `${path} in ${IN} should have at least ${s.minProperties} properties`,
        ),
      );
      return;
    }
    if (s.maxProperties !== undefined && count > s.maxProperties) {
      this.errors.push(fieldErrors.tooMany(field, count, s.maxProperties));
      return;
    }
    const props = s.properties ?? {};
    const oldObj = old && isObject(old.value) ? old.value : undefined;
    const sub = (key: string): Old =>
      oldObj && Object.hasOwn(oldObj, key) ? { value: oldObj[key] } : undefined;
    const ap = additionalSchema(s);
    for (const key of Object.keys(data)) {
      if (Object.hasOwn(props, key)) continue;
      if (s.additionalProperties === false) {
        this.errors.push(fieldErrors.invalid(field, key, `${path}.${key} in ${IN} is a forbidden property`));
      } else if (ap) {
        const correlatable = s["x-kubernetes-map-type"] !== "atomic";
        this.validate(ap, data[key], `${path}.${key}`, correlatable ? sub(key) : undefined);
      }
    }
    for (const [name, propSchema] of Object.entries(props)) {
      if (Object.hasOwn(data, name)) {
        this.validate(propSchema, data[name], path === "" ? name : `${path}.${name}`, sub(name));
      }
    }
    for (const name of s.required ?? []) {
      if (!Object.hasOwn(data, name)) this.errors.push(fieldErrors.required(fieldOf(`${path}.${name}`)));
    }
  }
}
