import type { Item } from "../inventory/index.ts";
import { admitManifest, desiredOf } from "../inventory/index.ts";
import type { FieldDiff, NameLookup, ResolvedReference } from "../runtime/sdk/index.ts";
import { Annotation, API_VERSION } from "../runtime/sdk/index.ts";
import { hrefsIn, shapeOf } from "./spec.ts";

/** One object being exported: the service object, its manifest name and the spec written for it. */
export interface Entry {
  item: Item;
  name: string;
  spec: Record<string, unknown>;
  /** References written instead of an href: ref field -> the href field and value it replaced. */
  replaced: Map<string, { field: string; href: string; target: Entry }>;
}

/** What applying a spec would do to its service object. */
export interface Verdict {
  /** Why the operator could not take the spec (schema, CEL, validate, a dependency): the object would not be adopted cleanly. */
  problem?: string;
  /** What an adoption would then update (or refuse), by field; empty when the spec matches. */
  diff: FieldDiff[];
  /** The service hrefs the desired state holds, but the object's own: what a reference must resolve to the same. */
  hrefs: string[];
}

export interface ExportContext {
  client: unknown;
  names: NameLookup;
  namespace: string;
  accountName: string;
  managementPolicy: "ObserveOnly" | "Manage";
  /** Entries by kind and manifest name, for references. */
  byName: Map<string, Entry>;
}

export const entryKey = (kind: string, name: string) => `${kind}/${name}`;

/** The spec as written: management fields first, then the kind's fields in its schema's order. */
export function writtenSpec(entry: Entry, ctx: Pick<ExportContext, "accountName" | "managementPolicy">) {
  const spec: Record<string, unknown> = {};
  if (ctx.accountName !== "default") spec.accountRef = { name: ctx.accountName };
  spec.managementPolicy = ctx.managementPolicy;
  // Deleting a custom resource must not delete production by surprise.
  if (ctx.managementPolicy === "Manage") spec.deletionPolicy = "Orphan";
  for (const field of shapeOf(entry.item.kind).fields)
    if (entry.spec[field] !== undefined) spec[field] = entry.spec[field];
  return spec;
}

/** The manifest of an entry (with `spec` given, for a trial). */
export function manifestOf(
  entry: Entry,
  ctx: Pick<ExportContext, "accountName" | "managementPolicy" | "namespace">,
  spec: Record<string, unknown> = entry.spec,
): Record<string, unknown> {
  return {
    apiVersion: API_VERSION,
    kind: entry.item.kind.kind,
    metadata: {
      name: entry.name,
      namespace: ctx.namespace,
      annotations: { [Annotation.href]: entry.item.href },
    },
    spec: writtenSpec({ ...entry, spec }, ctx),
  };
}

/**
 * What the operator would make of `spec` for the entry's service object, with its references
 * resolved to the exported objects they name (their hrefs and what the service shows of them):
 * the same admission, validation, `desired` and `diff` it runs when it adopts the object.
 */
export async function verdict(
  entry: Entry,
  spec: Record<string, unknown>,
  ctx: ExportContext,
): Promise<Verdict> {
  const { kind } = entry.item;
  const admitted = admitManifest(kind, manifestOf(entry, ctx, spec));
  if (!admitted.ok) return { problem: admitted.message, diff: [], hrefs: [] };
  const refs: Record<string, ResolvedReference> = {};
  for (const r of admitted.references) {
    const target = ctx.byName.get(entryKey(r.kind, r.name));
    if (!target)
      return { problem: `spec.${r.field}: ${r.kind} ${r.name} is not exported`, diff: [], hrefs: [] };
    refs[r.field] = { kind: r.kind, name: r.name, href: target.item.href, atProvider: target.item.at };
  }
  const result = await desiredOf({ ...admitted, kind, refs, client: ctx.client, names: ctx.names });
  if (!result.ok) return { problem: result.message, diff: [], hrefs: [] };
  // Its own href (a network's default route table is checked to be of this network) names no other object.
  const hrefs = hrefsIn(result.desired).filter((h) => h !== entry.item.href);
  return { diff: kind.diff(result.desired, entry.item.observed), hrefs };
}
