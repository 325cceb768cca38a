/**
 * The checks the apiserver makes on a CustomResourceDefinition before accepting it, limited to
 * what makes a CRD unservable or its schema non-structural: names, group, scope, versions and
 * exactly one storage version, structural schema basics, valid defaults and patterns, and CEL
 * rules that compile (including oldSelf only where an old value can correlate).
 */

import { compileRule } from "./cel-compile.ts";
import { parseFieldPath } from "./cel-validate.ts";
import { type FieldError, fieldErrors, GoSyntax, goQuote, ROOT } from "./field-error.ts";
import { re2Error } from "./regex.ts";
import { sanitizeSchema, schemaShapeErrors } from "./schema-shape.ts";
import { SchemaValidator } from "./schema-validate.ts";
import { additionalSchema, isObject, type JSONSchemaProps, type ValidationRule } from "./types.ts";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const RULE_REASONS = [
  "FieldValueInvalid",
  "FieldValueForbidden",
  "FieldValueRequired",
  "FieldValueDuplicate",
];

/** How the server prints an apiextensions.ValidationRule value (%#v of the internal struct). */
function ruleValue(rule: ValidationRule): GoSyntax {
  const reason =
    rule.reason === undefined
      ? "(*apiextensions.FieldValueErrorReason)(nil)"
      : "(*apiextensions.FieldValueErrorReason)(0xc000000000)";
  const optional = rule.optionalOldSelf === undefined ? "(*bool)(nil)" : "(*bool)(0xc000000000)";
  return new GoSyntax(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule ?? "")}, Message:${goQuote(rule.message ?? "")}, MessageExpression:${goQuote(rule.messageExpression ?? "")}, Reason:${reason}, FieldPath:${goQuote(rule.fieldPath ?? "")}, OptionalOldSelf:${optional}}`,
  );
}

class SchemaChecker {
  readonly errors: FieldError[] = [];

  /**
   * @param uncorrelatable schema path of the nearest list/map whose elements cannot be matched
   *   with their old values, if any (transition rules are not allowed below it)
   */
  node(
    s: JSONSchemaProps,
    path: string,
    isRoot: boolean,
    context: "root" | "field" | "item",
    uncorrelatable?: string,
  ): void {
    const err = (e: FieldError) => this.errors.push(e);
    const intOrString = s["x-kubernetes-int-or-string"] === true;
    const preserve = s["x-kubernetes-preserve-unknown-fields"] === true;
    if (s.$ref !== undefined) err(fieldErrors.forbidden(`${path}.$ref`, "$ref is not supported"));
    if (isRoot) {
      if (!s.type) err(fieldErrors.required(`${path}.type`, "must not be empty at the root"));
      else if (s.type !== "object")
        err(fieldErrors.invalid(`${path}.type`, s.type, "must be object at the root"));
      const meta = s.properties?.metadata;
      if (
        meta?.properties &&
        Object.keys(meta.properties).some((k) => k !== "name" && k !== "generateName")
      ) {
        err(
          fieldErrors.forbidden(
            `${path}.properties[metadata]`,
            "must not specify anything other than name and generateName, but metadata is implicitly specified",
          ),
        );
      }
    } else if (!s.type && !intOrString && !preserve) {
      const what = context === "item" ? "specified array items" : "specified object fields";
      err(fieldErrors.required(`${path}.type`, `must not be empty for ${what}`));
    }
    if (intOrString && s.type) {
      err(fieldErrors.invalid(`${path}.type`, s.type, "must be empty if x-kubernetes-int-or-string is true"));
    }
    if (s["x-kubernetes-preserve-unknown-fields"] === false) {
      err(
        fieldErrors.invalid(
          `${path}.x-kubernetes-preserve-unknown-fields`,
          false,
          "must be true or undefined",
        ),
      );
    }
    if (s.properties && s.additionalProperties !== undefined && s.additionalProperties !== false) {
      err(
        fieldErrors.forbidden(
          `${path}.additionalProperties`,
          "additionalProperties and properties are mutual exclusive",
        ),
      );
    }
    if (s.additionalProperties === false) {
      err(
        fieldErrors.forbidden(`${path}.additionalProperties`, "additionalProperties cannot be set to false"),
      );
    }
    if (s.type === "array" && !s.items) err(fieldErrors.required(`${path}.items`, "must be specified"));
    if (s.uniqueItems === true) {
      err(
        fieldErrors.forbidden(
          `${path}.uniqueItems`,
          "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ),
      );
    }
    if (s.pattern !== undefined) {
      const reErr = re2Error(s.pattern);
      if (reErr) {
        err(
          fieldErrors.invalid(
            `${path}.pattern`,
            s.pattern,
            `must be a valid regular expression, but isn't: ${reErr}`,
          ),
        );
      }
    }
    if (s["x-kubernetes-list-type"] === "map" && !s["x-kubernetes-list-map-keys"]?.length) {
      err(
        fieldErrors.required(
          `${path}.x-kubernetes-list-map-keys`,
          "must not be empty if x-kubernetes-list-type is map",
        ),
      );
    }
    if (s.default !== undefined) this.checkDefault(s, path);
    this.rules(s, s["x-kubernetes-validations"] ?? [], path, isRoot, uncorrelatable);
    (s.allOf ?? []).forEach((sub, i) => {
      this.rules(s, sub["x-kubernetes-validations"] ?? [], `${path}.allOf[${i}]`, isRoot, uncorrelatable);
      if (sub.pattern !== undefined && re2Error(sub.pattern)) {
        err(
          fieldErrors.invalid(
            `${path}.allOf[${i}].pattern`,
            sub.pattern,
            `must be a valid regular expression, but isn't: ${re2Error(sub.pattern)}`,
          ),
        );
      }
    });

    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      if (isRoot && name === "metadata") continue;
      this.node(prop, `${path}.properties[${name}]`, false, "field", uncorrelatable);
    }
    const ap = additionalSchema(s);
    if (ap) {
      const unc = uncorrelatable ?? (s["x-kubernetes-map-type"] === "atomic" ? path : undefined);
      this.node(ap, `${path}.additionalProperties`, false, "field", unc);
    }
    if (s.items) {
      const unc = uncorrelatable ?? (s["x-kubernetes-list-type"] === "map" ? undefined : path);
      this.node(s.items, `${path}.items`, false, "item", unc);
    }
  }

  private checkDefault(s: JSONSchemaProps, path: string): void {
    const v = new SchemaValidator();
    v.validate(s, s.default, "", undefined);
    for (const e of v.errors) {
      this.errors.push({ ...e, field: e.field === ROOT ? `${path}.default` : `${path}.default.${e.field}` });
    }
  }

  private rules(
    s: JSONSchemaProps,
    rules: ValidationRule[],
    path: string,
    isRoot: boolean,
    uncorrelatable?: string,
  ): void {
    rules.forEach((rule, i) => {
      const rulePath = `${path}.x-kubernetes-validations[${i}]`;
      if (!rule.rule || rule.rule.trim() === "") {
        this.errors.push(fieldErrors.required(`${rulePath}.rule`));
        return;
      }
      const compiled = compileRule(rule, s, isRoot);
      if (compiled.error) {
        this.errors.push(fieldErrors.invalid(`${rulePath}.rule`, ruleValue(rule), compiled.error));
      } else if (compiled.usesOldSelf && uncorrelatable !== undefined) {
        this.errors.push(
          fieldErrors.invalid(
            `${rulePath}.rule`,
            ruleValue(rule),
            `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
          ),
        );
      }
      if (compiled.messageExpressionError) {
        this.errors.push(
          fieldErrors.invalid(
            `${rulePath}.messageExpression`,
            rule.messageExpression,
            compiled.messageExpressionError,
          ),
        );
      }
      if (rule.reason !== undefined && !RULE_REASONS.includes(rule.reason)) {
        this.errors.push(fieldErrors.notSupported(`${rulePath}.reason`, rule.reason, RULE_REASONS));
      }
      if (rule.fieldPath) {
        const fp = parseFieldPath(rule.fieldPath, s);
        if (!fp.ok) {
          this.errors.push(
            fieldErrors.invalid(
              `${rulePath}.fieldPath`,
              rule.fieldPath,
              `fieldPath must be a valid path: ${fp.error}`,
            ),
          );
        }
      }
    });
  }
}

const COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"];
const COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

/** ValidateCustomResourceColumnDefinition. */
function checkPrinterColumns(columns: unknown, path: string, errors: FieldError[]): void {
  if (!Array.isArray(columns)) return;
  columns.forEach((col, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(col)) return;
    if (!str(col.name)) errors.push(fieldErrors.required(`${p}.name`));
    const type = str(col.type);
    if (!type) errors.push(fieldErrors.required(`${p}.type`, `must be one of ${COLUMN_TYPES.join(",")}`));
    else if (!COLUMN_TYPES.includes(type))
      errors.push(fieldErrors.notSupported(`${p}.type`, type, COLUMN_TYPES));
    const format = str(col.format);
    if (format && !COLUMN_FORMATS.includes(format)) {
      errors.push(fieldErrors.notSupported(`${p}.format`, format, COLUMN_FORMATS));
    }
    // validateSimpleJSONPath: the server checks only the leading dot; a path it cannot evaluate
    // makes the table fall back to default columns later.
    const jsonPath = str(col.jsonPath);
    if (!jsonPath) errors.push(fieldErrors.required(`${p}.jsonPath`));
    else if (!jsonPath.startsWith(".")) {
      errors.push(
        fieldErrors.invalid(`${p}.jsonPath`, jsonPath, "must be a simple json path starting with ."),
      );
    }
  });
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

export function checkCrdErrors(crd: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const err = (e: FieldError) => errors.push(e);
  const meta = isObject(crd.metadata) ? crd.metadata : {};
  const spec = isObject(crd.spec) ? crd.spec : {};
  const names = isObject(spec.names) ? spec.names : {};
  const group = str(spec.group);
  const plural = str(names.plural);

  if (!isObject(crd.spec)) err(fieldErrors.required("spec"));
  if (group && plural && meta.name !== `${plural}.${group}`) {
    err(fieldErrors.invalid("metadata.name", meta.name ?? "", 'must be spec.names.plural+"."+spec.group'));
  }
  if (!group) err(fieldErrors.required("spec.group"));
  else if (!group.includes("."))
    err(fieldErrors.invalid("spec.group", group, "should be a domain with at least one dot"));
  if (!plural) err(fieldErrors.required("spec.names.plural"));
  else if (!DNS1123_LABEL.test(plural))
    err(fieldErrors.invalid("spec.names.plural", plural, DNS1123_LABEL_MSG));
  const singular = str(names.singular);
  if (singular && !DNS1123_LABEL.test(singular))
    err(fieldErrors.invalid("spec.names.singular", singular, DNS1123_LABEL_MSG));
  const kind = str(names.kind);
  if (!kind) err(fieldErrors.required("spec.names.kind"));
  else if (!DNS1035_LABEL.test(kind.toLowerCase())) {
    err(
      fieldErrors.invalid(
        "spec.names.kind",
        kind,
        `may have mixed case, but should otherwise match: ${DNS1035_LABEL.source.slice(1, -1)}`,
      ),
    );
  }
  const listKind = str(names.listKind);
  if (listKind && listKind === kind)
    err(fieldErrors.invalid("spec.names.listKind", listKind, "kind and listKind may not be the same"));
  if (spec.scope === undefined || spec.scope === "") err(fieldErrors.required("spec.scope"));
  else if (spec.scope !== "Namespaced" && spec.scope !== "Cluster") {
    err(fieldErrors.notSupported("spec.scope", spec.scope, ["Cluster", "Namespaced"]));
  }

  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) {
    err(
      fieldErrors.invalid(
        "spec.versions",
        versions,
        "must have exactly one version marked as storage version",
      ),
    );
  }
  const seen = new Set<string>();
  let storage = 0;
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    if (!isObject(v)) {
      err(fieldErrors.invalid(path, v, "must be an object"));
      return;
    }
    const name = str(v.name);
    if (!name) err(fieldErrors.required(`${path}.name`));
    else if (!DNS1035_LABEL.test(name)) err(fieldErrors.invalid(`${path}.name`, name, DNS1035_LABEL_MSG));
    if (name && seen.has(name))
      err(
        fieldErrors.invalid(
          "spec.versions",
          versions.map((x) => (isObject(x) ? x.name : x)),
          "must contain unique version names",
        ),
      );
    if (name) seen.add(name);
    if (v.storage === true) storage++;
    checkPrinterColumns(v.additionalPrinterColumns, `${path}.additionalPrinterColumns`, errors);
    const schema = isObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
    const schemaPath = `${path}.schema.openAPIV3Schema`;
    if (!isObject(schema)) {
      err(fieldErrors.required(schemaPath, "schemas are required"));
      return;
    }
    errors.push(...schemaShapeErrors(schema, schemaPath));
    const checker = new SchemaChecker();
    checker.node(sanitizeSchema(schema), schemaPath, true, "root");
    errors.push(...checker.errors);
  });
  if (versions.length > 0 && storage !== 1) {
    err(
      fieldErrors.invalid(
        "spec.versions",
        versions.map((x) => (isObject(x) ? x.name : x)),
        "must have exactly one version marked as storage version",
      ),
    );
  }
  return errors;
}
