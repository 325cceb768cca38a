/**
 * The checks apiextensions-apiserver runs beside kube-openapi's, on the whole object and without
 * ratcheting: x-kubernetes-list-type set/map uniqueness (structurallisttype.ValidateListSetsAndMaps)
 * and x-kubernetes-embedded-resource apiVersion/kind (schemaobjectmeta.Validate).
 */
import { type FieldError, fieldErrors, ROOT } from "./field-error.ts";
import { additionalSchema, deepEqual, isObject, type JSONSchemaProps } from "./types.ts";

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
