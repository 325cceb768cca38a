/**
 * The seam between the server and the admission, OpenAPI and Table modules (DC-ADMIT's
 * src/admission/, openapi.ts, table.ts). The server only calls through `Presenter`
 * and `Admitter`, so either side can change without touching the other.
 */
import { admit, checkCrd, type AdmissionInput as RealAdmissionInput } from "../admission/index.ts";

/** The error types that keep the CRD's CEL rules from running. */
export { BLOCKING } from "../admission/index.ts";

import type { StatusCause } from "./errors.ts";
import { isObj, type Obj } from "./meta.ts";
import { openApiV2, openApiV3GroupVersion, openApiV3Index } from "./openapi.ts";
import { toTable } from "./table.ts";

export interface AdmissionInput {
  schema: Obj;
  object: Obj;
  oldObject?: Obj;
  /** The old object passed every rule when stored (a result's `rulesPassed`). */
  oldPassed?: boolean;
  subresource?: "status";
  /** Errors found in the metadata block the CEL rules (see src/admission). */
  blocked?: boolean;
  /** The caller hands `object` over: the admitter may change it in place instead of copying it. */
  owned?: boolean;
}

export interface AdmissionResult {
  object: Obj;
  causes: StatusCause[];
  /** Fields pruning dropped (`spec.foo`): unknown fields for fieldValidation. */
  unknownFields?: string[];
  /** Rule failures ratcheted into warnings. */
  warnings?: string[];
  /** Every validation rule passed, with no ratcheted warning. */
  rulesPassed?: boolean;
}

export interface Admitter {
  admit(input: AdmissionInput): AdmissionResult;
  checkCrd(crd: Obj): StatusCause[];
}

export interface Presenter {
  openApiV2(crds: Obj[]): object;
  openApiV3Index(crds: Obj[]): object;
  openApiV3GroupVersion(crds: Obj[], group: string, version: string): object | undefined;
  /**
   * `noHeaders` leaves out columnDefinitions (watch events after the first); `includeObject`
   * is the request's parameter (None, Metadata, Object).
   */
  toTable(
    crdVersion: Obj | undefined,
    objects: object[],
    listMeta?: object,
    options?: { noHeaders?: boolean; includeObject?: "None" | "Metadata" | "Object" },
  ): object;
}

/** Admits everything unchanged: used until the admission module is wired in. */
export const admitAll: Admitter = {
  admit: ({ object }) => ({ object, causes: [] }),
  checkCrd: () => [],
};

function age(object: object): string {
  const m = (object as Obj).metadata;
  return isObj(m) && typeof m.creationTimestamp === "string" ? m.creationTimestamp : "";
}

/** A minimal presenter: empty OpenAPI documents and a Name/Age table. */
export const minimalPresenter: Presenter = {
  openApiV2: () => ({
    swagger: "2.0",
    info: { title: "Kubernetes", version: "v1" },
    paths: {},
    definitions: {},
  }),
  openApiV3Index: () => ({ paths: {} }),
  openApiV3GroupVersion: () => undefined,
  toTable: (_crdVersion, objects, listMeta) => ({
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMeta ?? {},
    columnDefinitions: [
      {
        name: "Name",
        type: "string",
        format: "name",
        description: "Name must be unique within a namespace.",
        priority: 0,
      },
      { name: "Age", type: "date", format: "", description: "CreationTimestamp", priority: 0 },
    ],
    rows: objects.map((object) => ({
      cells: [String(((object as Obj).metadata as Obj | undefined)?.name ?? ""), age(object)],
      object: {
        kind: "PartialObjectMetadata",
        apiVersion: "meta.k8s.io/v1",
        metadata: (object as Obj).metadata,
      },
    })),
  }),
};

/** The real admission: schema validation, pruning, defaulting and CEL rules (src/admission). */
export const crdAdmission: Admitter = {
  admit: (input) => admit(input as unknown as RealAdmissionInput),
  checkCrd: (crd) => checkCrd(crd),
};

/** OpenAPI documents from the CRDs (src/devcluster/openapi.ts), Tables from printer columns (table.ts). */
export const defaultPresenter: Presenter = {
  openApiV2: (crds) => openApiV2(crds),
  openApiV3Index: (crds) => openApiV3Index(crds),
  openApiV3GroupVersion: (crds, group, version) => openApiV3GroupVersion(crds, group, version),
  toTable: (crdVersion, objects, listMeta, options) => toTable(crdVersion, objects, listMeta, options),
};
