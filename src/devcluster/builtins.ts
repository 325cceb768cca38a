import { CORE_EVENTS, EVENTS_V1_EVENTS } from "./builtin-events.ts";
import { badRequest, type FieldError } from "./errors.ts";
import { METADATA_SHAPE, type Shape } from "./fieldset.ts";
import { dropEmpty, isObj, type Obj } from "./meta.ts";
import { apiVersionOf, type ResourceType, STANDARD_VERBS } from "./types.ts";

const BASE_SHAPE: Shape = { properties: { metadata: METADATA_SHAPE } };
const NAME_FIELDS = ["metadata.name", "metadata.namespace"];
const KEY = /^[-._a-zA-Z0-9]+$/;

function base(
  partial: Partial<ResourceType> & Pick<ResourceType, "group" | "resource" | "kind">,
): ResourceType {
  return {
    versions: ["v1"],
    singular: partial.kind.toLowerCase(),
    listKind: `${partial.kind}List`,
    namespaced: true,
    shortNames: [],
    categories: [],
    storageKey: `${partial.group}/${partial.resource}`,
    verbs: STANDARD_VERBS,
    storageVersion: apiVersionOf(partial.group, "v1"),
    subresources: [],
    statusSubresource: false,
    generation: false,
    custom: false,
    nameRule: "subdomain",
    fieldSelectors: NAME_FIELDS,
    unconditionalUpdate: true,
    shape: () => BASE_SHAPE,
    ...partial,
  };
}

function checkKeys(object: Obj, field: "data" | "binaryData"): FieldError[] {
  const map = object[field];
  if (map === undefined || map === null) return [];
  if (!isObj(map)) return [{ type: "FieldValueInvalid", field, value: map, detail: "must be a map" }];
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(map)) {
    if (!KEY.test(key) || key === "." || key === "..") {
      errors.push({
        type: "FieldValueInvalid",
        field: `${field}[${key}]`,
        value: key,
        detail:
          "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      });
    }
    if (typeof value !== "string") {
      errors.push({
        type: "FieldValueInvalid",
        field: `${field}[${key}]`,
        value,
        detail: "must be a string",
      });
    }
  }
  return errors;
}

function checkImmutable(object: Obj, old: Obj | undefined, fields: string[]): FieldError[] {
  if (old?.immutable !== true) return [];
  const errors: FieldError[] = [];
  for (const field of fields) {
    if (JSON.stringify(object[field] ?? null) !== JSON.stringify(old[field] ?? null)) {
      errors.push({
        type: "FieldValueForbidden",
        field,
        detail: "field is immutable when `immutable` is set",
      });
    }
  }
  if (object.immutable !== true) {
    errors.push({
      type: "FieldValueForbidden",
      field: "immutable",
      detail: "field is immutable when `immutable` is set",
    });
  }
  return errors;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Where Go's base64 decoder stops on a value BASE64 refuses: a byte outside the alphabet, else the last quantum. */
function illegalBase64At(value: string): number {
  const bad = /[^A-Za-z0-9+/=]/.exec(value);
  if (bad) return bad.index;
  const padding = value.indexOf("=");
  return padding >= 0 && padding < value.length - 2 ? padding : Math.floor(value.length / 4) * 4;
}

/** Secrets: stringData is write-only sugar for base64 data; data must be base64. */
function normalizeSecret(object: Obj, old: Obj | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (isObj(object.stringData)) {
    const data: Obj = isObj(object.data) ? { ...object.data } : {};
    for (const [key, value] of Object.entries(object.stringData)) {
      if (typeof value !== "string") {
        errors.push({
          type: "FieldValueInvalid",
          field: `stringData[${key}]`,
          value,
          detail: "must be a string",
        });
        continue;
      }
      data[key] = Buffer.from(value, "utf8").toString("base64");
    }
    object.data = data;
  }
  delete object.stringData;
  dropEmpty(object, ["data"]);
  if (object.type === undefined || object.type === "") object.type = "Opaque";
  errors.push(...checkKeys(object, "data"));
  if (isObj(object.data)) {
    for (const value of Object.values(object.data)) {
      if (typeof value === "string" && !BASE64.test(value)) {
        // Not data at all to the real server: its JSON decoder refuses the Secret (400).
        throw badRequest(
          `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${illegalBase64At(value)}`,
        );
      }
    }
  }
  if (old && old.type !== object.type) {
    errors.push({
      type: "FieldValueInvalid",
      field: "type",
      value: object.type,
      detail: "field is immutable",
    });
  }
  errors.push(...checkImmutable(object, old, ["data"]));
  return errors;
}

function normalizeConfigMap(object: Obj, old: Obj | undefined): FieldError[] {
  dropEmpty(object, ["data", "binaryData"]);
  const errors = [
    ...checkKeys(object, "data"),
    ...checkKeys(object, "binaryData"),
    ...checkImmutable(object, old, ["data", "binaryData"]),
  ];
  if (isObj(object.data) && isObj(object.binaryData)) {
    for (const key of Object.keys(object.binaryData)) {
      if (Object.hasOwn(object.data, key)) {
        errors.push({
          type: "FieldValueInvalid",
          field: `data[${key}]`,
          value: key,
          detail: "duplicate of key present in binaryData",
        });
      }
    }
  }
  return errors;
}

function normalizeLease(object: Obj): FieldError[] {
  const spec = isObj(object.spec) ? object.spec : {};
  const errors: FieldError[] = [];
  for (const field of ["leaseDurationSeconds", "leaseTransitions"] as const) {
    const value = spec[field];
    if (value === undefined || value === null) continue;
    const min = field === "leaseDurationSeconds" ? 1 : 0;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
      errors.push({
        type: "FieldValueInvalid",
        field: `spec.${field}`,
        value,
        detail: min === 1 ? "must be greater than 0" : "must be greater than or equal to 0",
      });
    }
  }
  return errors;
}

function normalizeNamespace(object: Obj, old: Obj | undefined): FieldError[] {
  // The real server labels every namespace with its own name (NamespaceDefaultLabelName).
  const metadata = object.metadata as Obj;
  metadata.labels = {
    ...(isObj(metadata.labels) ? metadata.labels : {}),
    "kubernetes.io/metadata.name": String(metadata.name),
  };
  const spec = isObj(object.spec) ? object.spec : {};
  if (old) {
    // Only /finalize changes spec.finalizers (the namespace strategy's PrepareForUpdate).
    const before = isObj(old.spec) ? old.spec.finalizers : undefined;
    if (before === undefined) delete spec.finalizers;
    else spec.finalizers = before;
  }
  object.spec = spec;
  return [];
}

/**
 * The namespace strategy's PrepareForCreate: a new namespace is Active and carries the namespace
 * controller's finalizer, so its deletion waits until the controller has emptied it.
 */
function prepareNamespace(object: Obj): void {
  const spec = isObj(object.spec) ? object.spec : {};
  const given = Array.isArray(spec.finalizers) ? spec.finalizers : [];
  spec.finalizers = given.includes("kubernetes") ? given : [...given, "kubernetes"];
  object.spec = spec;
  object.status = { phase: "Active" };
}

export function builtinTypes(): ResourceType[] {
  return [
    base({
      group: "",
      resource: "namespaces",
      kind: "Namespace",
      namespaced: false,
      shortNames: ["ns"],
      verbs: STANDARD_VERBS.filter((v) => v !== "deletecollection"),
      subresources: ["status", "finalize"],
      statusSubresource: true,
      nameRule: "label",
      fieldSelectors: ["metadata.name", "status.phase"],
      zero: { spec: {}, status: {} },
      normalize: normalizeNamespace,
      prepareForCreate: prepareNamespace,
    }),
    base({
      group: "",
      resource: "secrets",
      kind: "Secret",
      fieldSelectors: [...NAME_FIELDS, "type"],
      normalize: normalizeSecret,
    }),
    base({
      group: "",
      resource: "configmaps",
      kind: "ConfigMap",
      shortNames: ["cm"],
      normalize: normalizeConfigMap,
    }),
    base(CORE_EVENTS),
    base(EVENTS_V1_EVENTS),
    base({
      group: "coordination.k8s.io",
      resource: "leases",
      kind: "Lease",
      // LeaseSpec is a struct, not a pointer: a Lease always says spec.
      zero: { spec: {} },
      normalize: normalizeLease,
    }),
  ];
}
