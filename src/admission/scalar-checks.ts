/**
 * kube-openapi's validators of a single string or number (length, pattern, format, multipleOf,
 * bounds), with its messages; the schema walk decides where they apply.
 */
import { type FieldError, fieldErrors, GoFloat, goQuote, ROOT } from "./field-error.ts";
import { checkFormat, supportedFormat } from "./formats.ts";
import { re2Match } from "./regex.ts";
import type { JSONSchemaProps } from "./types.ts";

/** kube-openapi names the part of the request a value came from; for a custom resource it is always the body. */
export const IN = "body";

/** kube-openapi error Name -> field path of the cause. */
export function fieldOf(name: string): string {
  const trimmed = name.startsWith(".") ? name.slice(1) : name;
  return trimmed === "" ? ROOT : trimmed;
}

function numberLimit(data: number, limit: number): number | GoFloat {
  return Number.isInteger(data) ? Math.trunc(limit) : new GoFloat(limit);
}

export function checkString(s: JSONSchemaProps, data: string, path: string, errors: FieldError[]): void {
  const length = [...data].length;
  if (s.maxLength !== undefined && length > s.maxLength) {
    errors.push(fieldErrors.tooLong(fieldOf(path), s.maxLength));
    return;
  }
  if (s.minLength !== undefined && length < s.minLength) {
    errors.push(
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
      errors.push(
        fieldErrors.invalid(
          fieldOf(path),
          data,
          `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${r.error}'`,
        ),
      );
    } else if (!r.matches) {
      errors.push(fieldErrors.invalid(fieldOf(path), data, `${path} in ${IN} should match '${s.pattern}'`));
    }
  }
}

export function checkStringFormat(
  s: JSONSchemaProps,
  data: string,
  path: string,
  errors: FieldError[],
): void {
  if (!supportedFormat(s.format) || checkFormat(s.format, data)) return;
  errors.push(
    fieldErrors.typeInvalid(
      fieldOf(path),
      data,
      `${path} in ${IN} must be of type ${s.format}: ${goQuote(data)}`,
    ),
  );
}

export function checkNumber(s: JSONSchemaProps, data: number, path: string, errors: FieldError[]): void {
  const field = fieldOf(path);
  if (s.multipleOf !== undefined) {
    const factor = s.multipleOf;
    const integral = Number.isInteger(data);
    const mult = integral ? data / Math.trunc(factor) : factor < 1 ? (1 / factor) * data : data / factor;
    if (factor < 0) {
      errors.push(
        fieldErrors.invalid(
          field,
          factor,
          `factor MultipleOf declared for ${path} must be positive: ${factor}`,
        ),
      );
    } else if (!Number.isInteger(mult)) {
      errors.push(
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
      errors.push(
        fieldErrors.invalid(field, data, `${path} in ${IN} should be ${rel} ${numberLimit(data, s.minimum)}`),
      );
    }
  }
  if (s.maximum !== undefined) {
    const max = Number.isInteger(data) ? Math.trunc(s.maximum) : s.maximum;
    if (s.exclusiveMaximum ? data >= max : data > max) {
      const rel = s.exclusiveMaximum ? "less than" : "less than or equal to";
      errors.push(
        fieldErrors.invalid(field, data, `${path} in ${IN} should be ${rel} ${numberLimit(data, s.maximum)}`),
      );
    }
  }
}
