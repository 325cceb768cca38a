/**
 * OpenAPI v3 value validation as k8s.io/kube-openapi's SchemaValidator does it for custom
 * resources, converted to field errors the way apiextensions-apiserver's
 * kubeOpenAPIResultToFieldErrors does (same reasons, messages and "spec.a[0].b" paths).
 *
 * On update, errors in parts of the object equal to their old value are dropped
 * (CRDValidationRatcheting, on by default since Kubernetes 1.30).
 */
import { type FieldError, fieldErrors, GoFloat, goQuote, ROOT } from "./field-error.ts";
import { checkFormat, supportedFormat } from "./formats.ts";
import { re2Match } from "./regex.ts";
import { additionalSchema, deepEqual, isObject, type JSONSchemaProps } from "./types.ts";

/** The old value at the same place, when the place is correlatable. */
type Old = { value: unknown } | undefined;

const IN = "body";

/** kube-openapi error Name -> field path of the cause. */
function fieldOf(name: string): string {
  const trimmed = name.startsWith(".") ? name.slice(1) : name;
  return trimmed === "" ? ROOT : trimmed;
}

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

function numberLimit(data: number, limit: number): number | GoFloat {
  return Number.isInteger(data) ? Math.trunc(limit) : new GoFloat(limit);
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
      this.checkString(s, data, path);
      this.checkFormat(s, data, path);
    }
    if (typeof data === "number") this.checkNumber(s, data, path);
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

  private checkString(s: JSONSchemaProps, data: string, path: string): void {
    const length = [...data].length;
    if (s.maxLength !== undefined && length > s.maxLength) {
      this.errors.push(fieldErrors.tooLong(fieldOf(path), s.maxLength));
      return;
    }
    if (s.minLength !== undefined && length < s.minLength) {
      this.errors.push(
        fieldErrors.invalid(
          fieldOf(path),
          data,
          `${path} in ${IN} should be at least ${s.minLength} chars long`,
        ),
      );
      return;
    }
    if (s.pattern) {
      const r = re2Match(s.pattern, data);
      if (!r.ok) {
        this.errors.push(
          fieldErrors.invalid(
            fieldOf(path),
            data,
            `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${r.error}'`,
          ),
        );
      } else if (!r.matches) {
        this.errors.push(
          fieldErrors.invalid(fieldOf(path), data, `${path} in ${IN} should match '${s.pattern}'`),
        );
      }
    }
  }

  private checkFormat(s: JSONSchemaProps, data: string, path: string): void {
    if (!supportedFormat(s.format) || checkFormat(s.format, data)) return;
    this.errors.push(
      fieldErrors.typeInvalid(
        fieldOf(path),
        data,
        `${path} in ${IN} must be of type ${s.format}: ${goQuote(data)}`,
      ),
    );
  }

  private checkNumber(s: JSONSchemaProps, data: number, path: string): void {
    const field = fieldOf(path);
    if (s.multipleOf !== undefined) {
      const factor = s.multipleOf;
      const integral = Number.isInteger(data);
      const mult = integral ? data / Math.trunc(factor) : factor < 1 ? (1 / factor) * data : data / factor;
      if (factor < 0) {
        this.errors.push(
          fieldErrors.invalid(
            field,
            factor,
            `factor MultipleOf declared for ${path} must be positive: ${factor}`,
          ),
        );
      } else if (!Number.isInteger(mult)) {
        this.errors.push(
          fieldErrors.invalid(
            field,
            data,
            `${path} in ${IN} should be a multiple of ${numberLimit(data, factor)}`,
          ),
        );
      }
    }
    if (s.minimum !== undefined) {
      const min = Number.isInteger(data) ? Math.trunc(s.minimum) : s.minimum;
      if (s.exclusiveMinimum ? data <= min : data < min) {
        const rel = s.exclusiveMinimum ? "greater than" : "greater than or equal to";
        this.errors.push(
          fieldErrors.invalid(
            field,
            data,
            `${path} in ${IN} should be ${rel} ${numberLimit(data, s.minimum)}`,
          ),
        );
      }
    }
    if (s.maximum !== undefined) {
      const max = Number.isInteger(data) ? Math.trunc(s.maximum) : s.maximum;
      if (s.exclusiveMaximum ? data >= max : data > max) {
        const rel = s.exclusiveMaximum ? "less than" : "less than or equal to";
        this.errors.push(
          fieldErrors.invalid(
            field,
            data,
            `${path} in ${IN} should be ${rel} ${numberLimit(data, s.maximum)}`,
          ),
        );
      }
    }
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

const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** x-kubernetes-embedded-resource objects need apiVersion and kind (schemaobjectmeta.Validate). */
function validateEmbeddedResource(data: Record<string, unknown>, path: string, errors: FieldError[]): void {
  const child = (name: string) => (path === ROOT ? name : `${path}.${name}`);
  if (!Object.hasOwn(data, "apiVersion"))
    errors.push(fieldErrors.required(child("apiVersion"), "must not be empty"));
  if (!Object.hasOwn(data, "kind")) errors.push(fieldErrors.required(child("kind"), "must not be empty"));
  const { apiVersion, kind } = data;
  if (apiVersion !== undefined) {
    if (typeof apiVersion !== "string")
      errors.push(fieldErrors.invalid(child("apiVersion"), apiVersion, "must be a string"));
    else if (apiVersion === "")
      errors.push(fieldErrors.invalid(child("apiVersion"), apiVersion, "must not be empty"));
    else if (apiVersion.split("/").length > 2) {
      errors.push(
        fieldErrors.invalid(child("apiVersion"), apiVersion, `unexpected GroupVersion string: ${apiVersion}`),
      );
    }
  }
  if (kind !== undefined) {
    if (typeof kind !== "string") errors.push(fieldErrors.invalid(child("kind"), kind, "must be a string"));
    else if (kind === "") errors.push(fieldErrors.invalid(child("kind"), kind, "must not be empty"));
    else if (!DNS1035.test(kind.toLowerCase())) {
      errors.push(
        fieldErrors.invalid(
          child("kind"),
          kind,
          "may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
    }
  }
}

/**
 * x-kubernetes-list-type set/map uniqueness (structurallisttype.ValidateListSetsAndMaps) and
 * embedded resources' apiVersion/kind.
 */
export function validateListTypes(
  s: JSONSchemaProps,
  data: unknown,
  path: string,
  errors: FieldError[],
): void {
  if (Array.isArray(data)) {
    const listType = s["x-kubernetes-list-type"];
    const keys = s["x-kubernetes-list-map-keys"] ?? [];
    const seen: unknown[] = [];
    data.forEach((item, i) => {
      const itemPath = `${path === ROOT ? "" : path}[${i}]`;
      if (listType === "set" || (listType === "map" && isObject(item))) {
        const identity =
          listType === "set"
            ? item
            : Object.fromEntries(keys.map((k) => [k, (item as Record<string, unknown>)[k]]));
        if (seen.some((x) => deepEqual(x, identity))) errors.push(fieldErrors.duplicate(itemPath, identity));
        else seen.push(identity);
      }
      if (s.items) validateListTypes(s.items, item, itemPath, errors);
    });
    return;
  }
  if (!isObject(data)) return;
  if (s["x-kubernetes-embedded-resource"]) validateEmbeddedResource(data, path, errors);
  const props = s.properties ?? {};
  const ap = additionalSchema(s);
  for (const [key, value] of Object.entries(data)) {
    const child = path === ROOT ? key : `${path}.${key}`;
    if (Object.hasOwn(props, key)) validateListTypes(props[key]!, value, child, errors);
    else if (ap) validateListTypes(ap, value, `${path === ROOT ? "" : path}[${key}]`, errors);
  }
}
