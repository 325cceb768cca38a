import type { Facts } from "./facts.ts";

/**
 * Holds one representation to the real media type: no attribute and no link rel the reference
 * does not declare, rels in the real order (the reference's, or a recorded answer's where it
 * differs) and at most once, and every declared attribute sent unless the view leaves it out
 * (a recorded answer's fact or the simulator's documented choice, in `Rules`). Attributes that
 * embed other representations are checked against their own type.
 */

/** What the simulator chose where the reference is silent, per resource of the facts. */
export interface ResourceRules {
  /** Per view: the declared attributes that view leaves out (`[]` = every one is sent). */
  views: Record<string, readonly string[]>;
  /**
   * Per view, the declared rels it carries where it carries fewer than the type declares (a
   * view a recorded real answer shows); a view not listed may carry every declared rel.
   */
  viewLinks?: Record<string, readonly string[]>;
  /**
   * The order real answers give the rels in, where a recorded answer shows it differs from the
   * reference's declaration: every declared rel, once.
   */
  linkOrder?: readonly string[];
  /** Declared rels the simulator never sends (the target is not modelled), with the reason. */
  unservedLinks?: Record<string, string>;
  /** Declared attributes no view sends (no real answer carries them), with the reason. */
  unservedAttributes?: Record<string, string>;
  /**
   * Declared rels whose href the client gave and the simulator keeps as given, without serving
   * its target (a volume's placement group): sent, but not followed by a walk.
   */
  keptAsGiven?: Record<string, string>;
  /** Attributes holding representations of another resource (in one of its views). */
  nested?: Record<string, { resource: string; view: string; list?: boolean }>;
}
export type Rules = Record<string, ResourceRules>;

/** Attributes and rels seen per resource over a walk (to prove every declared one is sent). */
export interface Seen {
  attributes: Map<string, Set<string>>;
  rels: Map<string, Set<string>>;
}

export function newSeen(): Seen {
  return { attributes: new Map(), rels: new Map() };
}

function note(map: Map<string, Set<string>>, resource: string, name: string): void {
  const set = map.get(resource) ?? new Set<string>();
  map.set(resource, set.add(name));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export function checkRepresentation(
  facts: Facts,
  rules: Rules,
  resource: string,
  view: string,
  rep: unknown,
  seen: Seen = newSeen(),
): string[] {
  const at = `${resource} (view ${view})`;
  const declared = facts[resource];
  if (!declared) return [`${at}: no such resource in the reference`];
  if (!isObject(rep)) return [`${at}: not an object: ${JSON.stringify(rep)?.slice(0, 80)}`];
  const own = rules[resource];
  const viewOmits = own?.views[view];
  if (!viewOmits) return [`${at}: the rules name no choice for this view`];
  const omitted = [...viewOmits, ...Object.keys(own?.unservedAttributes ?? {})];
  const problems: string[] = [];

  for (const key of Object.keys(rep)) {
    if (!declared.attributes.includes(key)) problems.push(`${at}: undeclared attribute '${key}'`);
    else if (omitted.includes(key))
      problems.push(`${at}: attribute '${key}' is sent, but the view leaves it out`);
    else note(seen.attributes, resource, key);
  }
  for (const key of declared.attributes) {
    if (!omitted.includes(key) && !(key in rep))
      problems.push(`${at}: declared attribute '${key}' is missing`);
  }

  if ("links" in rep) {
    const links = {
      declared: declared.links,
      order: own?.linkOrder ?? declared.links,
      carried: own?.viewLinks?.[view] ?? declared.links,
    };
    problems.push(...checkLinks(links, rep.links, at, resource, seen));
  }
  if ("actions" in rep && !isRelList(rep.actions, false))
    problems.push(`${at}: actions is not a list of {rel}`);

  for (const [key, inner] of Object.entries(own?.nested ?? {})) {
    const value = rep[key];
    if (value === undefined || value === null) continue;
    const items = inner.list ? value : [value];
    if (!Array.isArray(items)) {
      problems.push(`${at}: attribute '${key}' is not a list`);
      continue;
    }
    for (const item of items) {
      problems.push(
        ...checkRepresentation(facts, rules, inner.resource, inner.view, item, seen).map(
          (p) => `${at}.${key}: ${p}`,
        ),
      );
    }
  }
  return problems;
}

function isRelList(value: unknown, withHref: boolean): value is Array<{ rel: string; href: string }> {
  return (
    Array.isArray(value) &&
    value.every(
      (l) =>
        isObject(l) &&
        typeof l.rel === "string" &&
        (!withHref || (typeof l.href === "string" && l.href !== "")),
    )
  );
}

/** The rels a type declares, the order they come in, and those the view carries. */
interface RelRules {
  declared: readonly string[];
  order: readonly string[];
  carried: readonly string[];
}

function checkLinks(rules: RelRules, links: unknown, at: string, resource: string, seen: Seen): string[] {
  if (!isRelList(links, true)) return [`${at}: links is not a list of {rel, href}`];
  const { declared, order, carried } = rules;
  const problems: string[] = [];
  let last = -1;
  const rels = new Set<string>();
  for (const { rel } of links) {
    if (!declared.includes(rel)) {
      problems.push(`${at}: undeclared link rel '${rel}'`);
      continue;
    }
    const position = order.indexOf(rel);
    if (position === -1) problems.push(`${at}: the rules give link rel '${rel}' no place in the order`);
    if (!carried.includes(rel)) problems.push(`${at}: link rel '${rel}' is sent, but the view leaves it out`);
    note(seen.rels, resource, rel);
    if (rels.has(rel)) problems.push(`${at}: link rel '${rel}' is sent twice`);
    else if (position !== -1 && position < last) {
      problems.push(
        `${at}: link rel '${rel}' comes after '${order[last]}' (the real order is the other way)`,
      );
    }
    rels.add(rel);
    last = Math.max(last, position);
  }
  return problems;
}
