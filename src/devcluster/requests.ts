/**
 * What a request asks of the API semantics, in the server's terms and independent of HTTP: who
 * writes and how, list and delete options, patch types. Shared by the handler that reads them off
 * the request and the verb modules that carry them out.
 */
import type { ResourceType } from "./types.ts";

/** Who writes and how: the served version, the namespace in the URL, the field manager. */
export interface WriteRequest {
  type: ResourceType;
  version: string;
  namespace?: string;
  /** `fieldManager` query parameter, or the prefix of the User-Agent (as the real server derives it). */
  manager: string;
  dryRun?: boolean;
  subresource?: "status";
  /** Unknown fields: Strict rejects, Warn reports them in `warnings`, Ignore drops them silently. */
  fieldValidation?: "Strict" | "Warn" | "Ignore";
  warnings?: string[];
  /** Set by a write that created its object (an apply can): answered 201, not 200. */
  created?: boolean;
  /** Set by admission: the schema whose every rule the object passed (the stored object gets it). */
  rulesPassed?: object;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export interface DeleteOptions {
  propagationPolicy?: "Orphan" | "Background" | "Foreground";
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export type PatchType = "merge" | "json" | "strategic" | "apply";

export const PATCH_CONTENT_TYPES: Record<string, PatchType> = {
  "application/merge-patch+json": "merge",
  "application/json-patch+json": "json",
  "application/strategic-merge-patch+json": "strategic",
  "application/apply-patch+yaml": "apply",
  "application/apply-patch+cbor": "apply",
};
