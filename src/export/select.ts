import { UsageError } from "../lib/cli/index.ts";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";
import { type Entry, entryKey } from "./entry.ts";
import type { RefGraph } from "./refs.ts";
import { hrefsIn } from "./spec.ts";

/** The names a kind answers to on the command line: kind, singular, plural and short names, any case. */
export function kindNamed(kinds: readonly AnyManagedKind[], text: string): AnyManagedKind | undefined {
  const t = text.trim().toLowerCase();
  return kinds.find((k) => [k.kind.toLowerCase(), k.singular, k.plural, ...k.shortNames].includes(t));
}

/** `--kinds a,b`: the kinds named, in dependency order; a name that is no kind is a usage error. */
export function parseKinds(kinds: readonly AnyManagedKind[], text: string | undefined): AnyManagedKind[] {
  if (text === undefined) return [...kinds];
  const wanted = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (wanted.length === 0) throw new UsageError("--kinds: must name at least one kind");
  const chosen = new Set<AnyManagedKind>();
  for (const name of wanted) {
    const kind = kindNamed(kinds, name);
    if (!kind)
      throw new UsageError(`--kinds: no kind "${name}"; kinds are ${kinds.map((k) => k.kind).join(", ")}`);
    chosen.add(kind);
  }
  return kinds.filter((k) => chosen.has(k));
}

export interface Filter {
  kind: AnyManagedKind;
  name: string;
}

/** `--filter KIND=NAME` (repeatable): the kind by any of its names, the object by service or manifest name. */
export function parseFilter(kinds: readonly AnyManagedKind[], text: string): Filter {
  const m = /^([^=]+)=(.+)$/.exec(text);
  if (!m) throw new UsageError(`--filter ${text}: must be KIND=NAME, e.g. deployment=web`);
  const kind = kindNamed(kinds, m[1]!);
  if (!kind)
    throw new UsageError(
      `--filter ${text}: no kind "${m[1]}"; kinds are ${kinds.map((k) => k.singular).join(", ")}`,
    );
  return { kind, name: m[2]!.trim() };
}

/**
 * The objects a filter keeps: the ones it names, and everything that belongs to them, directly or
 * not (a network of the deployment, the network's subnets and routes, a volume's attachments):
 * each object that references a kept one, by name or by href, is kept too.
 */
export function selected(entries: readonly Entry[], filters: readonly Filter[], graph: RefGraph): Set<Entry> {
  const byHref = new Map(entries.map((e) => [e.item.href, e]));
  const byKey = new Map(entries.map((e) => [entryKey(e.item.kind.kind, e.name), e]));
  const dependents = new Map<Entry, Entry[]>();
  for (const e of entries) {
    const targets = [
      ...graph.targets(entryKey(e.item.kind.kind, e.name)).map((k) => byKey.get(k)),
      ...hrefsIn(e.spec).map((h) => byHref.get(h)),
    ];
    for (const t of targets) {
      if (!t || t === e) continue;
      const list = dependents.get(t);
      if (list) list.push(e);
      else dependents.set(t, [e]);
    }
  }
  const kept = new Set<Entry>();
  const stack: Entry[] = [];
  for (const f of filters) {
    const roots = entries.filter(
      (e) => e.item.kind === f.kind && (e.item.at.name === f.name || e.name === f.name),
    );
    if (roots.length === 0)
      throw new UsageError(
        `--filter ${f.kind.singular}=${f.name}: the account has no ${f.kind.kind} named ${f.name}`,
      );
    stack.push(...roots);
  }
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (kept.has(e)) continue;
    kept.add(e);
    stack.push(...(dependents.get(e) ?? []));
  }
  return kept;
}
