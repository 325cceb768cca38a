import type { ServiceApi } from "../api/index.ts";
import { Inventory } from "../inventory/index.ts";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";
import { NameLookup } from "../runtime/sdk/index.ts";
import { type Entry, type ExportContext, entryKey, manifestOf, type Verdict, verdict } from "./entry.ts";
import { manifestNames } from "./names.ts";
import { dropReferencesOutside, RefGraph, useReferences } from "./refs.ts";
import { type Filter, selected } from "./select.ts";
import { specFromService } from "./spec.ts";
import type { Document } from "./write.ts";

export interface ExportOptions {
  client: ServiceApi;
  /** The kinds to export, in dependency order. */
  kinds: AnyManagedKind[];
  filters: Filter[];
  namespace: string;
  accountName: string;
  manage: boolean;
  /** Called as objects are done: `done` of `total`. */
  progress?(done: number, total: number): void;
}

export interface Skipped {
  kind: string;
  message: string;
  /** The service refused the kind's collection (403): a role the credentials lack. */
  forbidden: boolean;
}

export interface ExportResult {
  documents: Document[];
  /** Kinds not exported, and why. */
  skipped: Skipped[];
  /** Objects not exported (their spec would not be taken as it is), and why. */
  objectsSkipped: string[];
  /** Fields left out of an object, or that an adoption would still update. */
  warnings: string[];
}

const describe = (e: Entry) => `${e.item.kind.kind} ${e.name} (${e.item.href})`;

/**
 * Reads the account and makes a manifest of each object: listing (inventory.ts), names
 * (names.ts), the spec from what the service shows (spec.ts), references by name where both ends
 * are exported (refs.ts), `--filter` (select.ts); then every spec is checked as the operator would
 * take it (entry.ts), so that applying the manifests adopts each object without a change.
 */
export async function exportAccount(o: ExportOptions): Promise<ExportResult> {
  const inventory = new Inventory(o.client);
  const skipped: Skipped[] = [];
  const entries: Entry[] = [];
  for (const kind of o.kinds) {
    const listing = await inventory.list(kind);
    if ("skipped" in listing) {
      skipped.push({ kind: kind.kind, message: listing.skipped, forbidden: listing.forbidden });
      continue;
    }
    const names = manifestNames(kind.singular, listing.items);
    const ofKind = listing.items.map((item) => ({
      item,
      name: names.get(item.href)!,
      spec: specFromService(item, names.get(item.href)!),
      replaced: new Map(),
    }));
    entries.push(...ofKind.sort((a, b) => a.name.localeCompare(b.name)));
  }
  const ctx: ExportContext = {
    client: o.client,
    names: new NameLookup(),
    namespace: o.namespace,
    accountName: o.accountName,
    managementPolicy: o.manage ? "Manage" : "ObserveOnly",
    byName: new Map(entries.map((e) => [entryKey(e.item.kind.kind, e.name), e])),
  };
  const graph = new RefGraph();
  let done = 0;
  const verdicts = await useReferences(entries, ctx, graph, () => o.progress?.(++done, entries.length));
  let kept = new Set(entries);
  if (o.filters.length > 0) {
    kept = selected(entries, o.filters, graph);
    for (const e of kept) {
      const before = e.replaced.size;
      dropReferencesOutside(e, kept);
      if (e.replaced.size !== before) verdicts.set(e, await verdict(e, e.spec, ctx));
    }
  }
  const result: ExportResult = { documents: [], skipped, objectsSkipped: [], warnings: [] };
  for (const e of entries) {
    if (!kept.has(e)) continue;
    const v = await settle(e, verdicts.get(e)!, ctx, result);
    if (v.problem !== undefined) {
      result.objectsSkipped.push(`${describe(e)}: ${v.problem}`);
      continue;
    }
    result.documents.push({ plural: e.item.kind.plural, name: e.name, body: manifestOf(e, ctx) });
    const needed = e.item.kind.export?.beforeManage?.(e.spec);
    if (needed) result.warnings.push(`${describe(e)}: ${needed}`);
  }
  return result;
}

/**
 * An object whose spec, as read, would not adopt without an update: the differing fields are left
 * out (unset, the operator does not manage them) when that makes it adopt cleanly; what still
 * differs is a warning.
 */
async function settle(e: Entry, v: Verdict, ctx: ExportContext, result: ExportResult): Promise<Verdict> {
  if (v.problem !== undefined || v.diff.length === 0) return v;
  const drop = v.diff.map((d) => d.field).filter((f) => e.spec[f] !== undefined);
  if (drop.length > 0) {
    const spec = Object.fromEntries(Object.entries(e.spec).filter(([f]) => !drop.includes(f)));
    const retried = await verdict(e, spec, ctx);
    if (retried.problem === undefined) {
      e.spec = spec;
      result.warnings.push(
        `${describe(e)}: left out ${drop.join(", ")}: the spec cannot say what the service shows`,
      );
      v = retried;
    }
  }
  if (v.diff.length > 0)
    result.warnings.push(
      `${describe(e)}: applying it with managementPolicy Manage would update ${v.diff.map((d) => d.field).join(", ")}`,
    );
  return v;
}
