import { deepEqual } from "../runtime/sdk/index.ts";
import { type Entry, type ExportContext, entryKey, type Verdict, verdict } from "./entry.ts";
import { hrefsIn, type Shape, shapeOf } from "./spec.ts";

/** Who references whom among the exported objects (by entry key), to keep references acyclic. */
export class RefGraph {
  private readonly edges = new Map<string, Set<string>>();

  add(from: string, to: string): void {
    let targets = this.edges.get(from);
    if (!targets) {
      targets = new Set();
      this.edges.set(from, targets);
    }
    targets.add(to);
  }

  /** Whether `to` can be reached from `from` (a reference from `to` to `from` would close a cycle). */
  reaches(from: string, to: string): boolean {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const key = stack.pop()!;
      if (key === to) return true;
      if (seen.has(key)) continue;
      seen.add(key);
      stack.push(...(this.edges.get(key) ?? []));
    }
    return false;
  }

  targets(from: string): string[] {
    return [...(this.edges.get(from) ?? [])];
  }
}

const keyOf = (e: Entry) => entryKey(e.item.kind.kind, e.name);

/** A verdict that adopts cleanly: nothing invalid, nothing to update. */
const clean = (v: Verdict) => v.problem === undefined && v.diff.length === 0;

/** How a reference's target may stand for an href: it is the object, or it shows it (its own network's table). */
type Match = "direct" | "showing";

/**
 * The exported objects a spec's href could name by reference instead: `direct`, the ones of the
 * reference's kind with that href; `showing`, the only one whose service representation shows it
 * (a route's route table is the default route table of one network: `networkRef`).
 */
function candidates(entries: readonly Entry[], href: string, match: Match): Entry[] {
  if (match === "direct") return entries.filter((e) => e.item.href === href);
  const showing = entries.filter((e) => hrefsIn(e.item.at).includes(href));
  return showing.length === 1 ? showing : [];
}

/**
 * Writes references by name where both ends are exported: each href field of a spec is tried
 * against the kind's `xRef` fields, and a reference is kept only when the operator would make of it
 * exactly what it makes of the href (the same service hrefs in the desired state, the spec valid,
 * nothing to update) and it closes no cycle of references (a Deployment in a ResourceGroup that
 * names the Deployment back keeps one of the two as an href). Objects are taken in the kinds'
 * dependency order, then by name, so the result is the same every time.
 */
export async function useReferences(
  entries: readonly Entry[],
  ctx: ExportContext,
  graph: RefGraph,
  done: () => void = () => {},
): Promise<Map<Entry, Verdict>> {
  const byKind = new Map<string, Entry[]>();
  for (const e of entries) {
    const list = byKind.get(e.item.kind.kind);
    if (list) list.push(e);
    else byKind.set(e.item.kind.kind, [e]);
  }
  const verdicts = new Map<Entry, Verdict>();
  for (const entry of entries) {
    const baseline = await verdict(entry, entry.spec, ctx);
    verdicts.set(entry, baseline);
    // An object whose spec does not adopt cleanly as it is: nothing to compare a reference with.
    if (clean(baseline)) await useReferencesOf(entry, byKind, baseline, ctx, graph);
    done();
  }
  return verdicts;
}

async function useReferencesOf(
  entry: Entry,
  byKind: ReadonlyMap<string, Entry[]>,
  baseline: Verdict,
  ctx: ExportContext,
  graph: RefGraph,
): Promise<void> {
  const shape = shapeOf(entry.item.kind);
  for (const field of shape.fields) {
    const href = entry.spec[field];
    if (!field.endsWith("Href") || typeof href !== "string" || !href.startsWith("/api/")) continue;
    // The object itself first (a route's RouteTable), then one showing it (the table's Network).
    search: for (const match of ["direct", "showing"] as const)
      for (const ref of shape.refs) {
        if (entry.spec[ref.field] !== undefined) continue;
        const found = candidates(byKind.get(ref.kind) ?? [], href, match);
        const target = await firstThatHolds(entry, field, href, ref, found, baseline, ctx, graph);
        if (target) {
          // An after-create association waits for nothing: no edge of the create-time order.
          if (!ref.afterCreate) graph.add(keyOf(entry), keyOf(target));
          break search;
        }
      }
  }
}

async function firstThatHolds(
  entry: Entry,
  field: string,
  href: string,
  ref: Shape["refs"][number],
  targets: readonly Entry[],
  baseline: Verdict,
  ctx: ExportContext,
  graph: RefGraph,
): Promise<Entry | undefined> {
  const refField = ref.field;
  for (const target of targets) {
    if (target === entry) continue;
    if (!ref.afterCreate && graph.reaches(keyOf(target), keyOf(entry))) continue;
    const trial: Record<string, unknown> = { ...entry.spec, [refField]: { name: target.name } };
    delete trial[field];
    const v = await verdict(entry, trial, ctx);
    if (!clean(v) || !deepEqual(v.hrefs, baseline.hrefs)) continue;
    entry.spec = trial;
    entry.replaced.set(refField, { field, href, target });
    return target;
  }
  return undefined;
}

/** Puts back the href of every reference to an object that is not exported after all (`--filter`). */
export function dropReferencesOutside(entry: Entry, kept: ReadonlySet<Entry>): void {
  for (const [refField, { field, href, target }] of entry.replaced) {
    if (kept.has(target)) continue;
    delete entry.spec[refField];
    entry.spec[field] = href;
    entry.replaced.delete(refField);
  }
}
