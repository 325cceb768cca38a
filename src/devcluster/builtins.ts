import type { FieldError } from "./errors.ts";
import { METADATA_SHAPE, type Shape } from "./fieldset.ts";
import { dropEmpty, isObj, type Obj } from "./meta.ts";
import type { ResourceType } from "./types.ts";

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
    for (const [key, value] of Object.entries(object.data)) {
      if (typeof value === "string" && !BASE64.test(value)) {
        errors.push({
          type: "FieldValueInvalid",
          field: `data[${key}]`,
          value: "<redacted>",
          detail: "illegal base64 data",
        });
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

/**
 * Event rules the real server enforces (legacy validation): the involved object's namespace is
 * the event's, and an event about a cluster-scoped object lives in `default`.
 */
function normalizeEvent(object: Obj): FieldError[] {
  const involved = isObj(object.involvedObject) ? object.involvedObject : {};
  const eventNamespace = String((object.metadata as Obj).namespace ?? "");
  const involvedNamespace = typeof involved.namespace === "string" ? involved.namespace : "";
  const ok =
    involvedNamespace === ""
      ? eventNamespace === "" || eventNamespace === "default"
      : involvedNamespace === eventNamespace;
  if (ok) return [];
  return [
    {
      type: "FieldValueInvalid",
      field: "involvedObject.namespace",
      value: involvedNamespace,
      detail: "does not match event.namespace",
    },
  ];
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
  } else {
    // A new namespace always carries the namespace controller's finalizer (PrepareForCreate):
    // its deletion waits until the controller has emptied it.
    const given = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    spec.finalizers = given.includes("kubernetes") ? given : [...given, "kubernetes"];
    object.status = { phase: "Active" };
  }
  object.spec = spec;
  const status = isObj(object.status) ? object.status : {};
  if (!status.phase) status.phase = "Active";
  object.status = status;
  return [];
}

/** events.k8s.io/v1 field names for the core/v1 Event fields stored here. */
const EVENT_RENAMES: [core: string, events: string][] = [
  ["involvedObject", "regarding"],
  ["message", "note"],
  ["source", "deprecatedSource"],
  ["firstTimestamp", "deprecatedFirstTimestamp"],
  ["lastTimestamp", "deprecatedLastTimestamp"],
  ["count", "deprecatedCount"],
  ["reportingComponent", "reportingController"],
];

function rename(object: Obj, pairs: [string, string][]): Obj {
  const out: Obj = { ...object };
  for (const [from, to] of pairs) {
    if (Object.hasOwn(out, from)) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

export function builtinTypes(): ResourceType[] {
  return [
    base({
      group: "",
      resource: "namespaces",
      kind: "Namespace",
      namespaced: false,
      shortNames: ["ns"],
      subresources: ["status", "finalize"],
      statusSubresource: true,
      nameRule: "label",
      fieldSelectors: ["metadata.name", "status.phase"],
      normalize: normalizeNamespace,
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
    base({
      group: "",
      resource: "events",
      kind: "Event",
      shortNames: ["ev"],
      storageKey: "events",
      normalize: normalizeEvent,
      fieldSelectors: [
        ...NAME_FIELDS,
        "involvedObject.kind",
        "involvedObject.namespace",
        "involvedObject.name",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.resourceVersion",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
      ],
    }),
    base({
      group: "events.k8s.io",
      resource: "events",
      kind: "Event",
      shortNames: ["ev"],
      storageKey: "events",
      normalize: normalizeEvent,
      fieldSelectors: [
        ...NAME_FIELDS,
        "regarding.kind",
        "regarding.name",
        "regarding.namespace",
        "reason",
        "type",
      ],
      toServed: (object) => rename(object, EVENT_RENAMES),
      fromServed: (object) =>
        rename(
          object,
          EVENT_RENAMES.map(([a, b]) => [b, a]),
        ),
    }),
    base({ group: "coordination.k8s.io", resource: "leases", kind: "Lease", normalize: normalizeLease }),
  ];
}
