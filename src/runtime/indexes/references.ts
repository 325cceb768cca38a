import { type Footprint, keyed } from "../../lib/index.ts";
import type { Reference } from "../sdk/index.ts";
import { objectKey, parseKey } from "../sdk/index.ts";

/** The steps a kind the service keeps pending after a create counts for in a chain (see kindLevel). */
export const PENDING_KIND_WEIGHT = 4;

/**
 * Who references whom, kept from the specs the informers deliver: when a target
 * becomes Ready its dependents are re-queued at once (no polling), and a target's
 * deletion waits while dependents exist.
 */
export class ReferenceIndex {
  /** Targets per dependent: a short array (an object names a few others). */
  private readonly targetsOf = new Map<string, readonly string[]>();
  /** Dependents per target, with the one copy of the target's key that the arrays share. */
  private readonly dependentsOf = new Map<string, { key: string; dependents: Dependents }>();
  /**
   * Per dependent that has any, its targets named only by after-create associations
   * (Reference.afterCreate): they wake the dependent and hold the target's deletion back like any
   * reference, but they are no create-time dependency, so cycles and dependency order ignore them.
   */
  private readonly afterOf = new Map<string, ReadonlySet<string>>();
  /** Kinds referencing each kind, learned from the references set (it only grows: a few kinds). */
  private readonly kindDependents = new Map<string, Set<string>>();
  private kindLevels = new Map<string, number>();

  /**
   * Replaces the references of `dependent` (a queue key) with `targets` (queue keys); `after`
   * names the targets that are only after-create associations (a key also in `targets` but
   * named by a create-time reference too is a create-time dependency).
   */
  set(dependent: string, targets: Iterable<string>, after: Iterable<string> = []): void {
    const unique = [...new Set([...targets, ...after])];
    const afterOnly = new Set(after);
    for (const t of targets) afterOnly.delete(t);
    const old = this.targetsOf.get(dependent);
    // Called on every reconcile: unchanged references (the usual case) are left as they are.
    if (
      old &&
      old.length === unique.length &&
      old.every((t, i) => t === unique[i]) &&
      sameSet(this.afterOf.get(dependent), afterOnly)
    )
      return;
    this.remove(dependent);
    if (unique.length === 0) return;
    if (afterOnly.size > 0) this.afterOf.set(dependent, afterOnly);
    const dependentKind = parseKey(dependent).kind;
    for (const t of unique) if (!afterOnly.has(t)) this.learnKindEdge(parseKey(t).kind, dependentKind);
    const shared = unique.map((t) => {
      const entry = this.dependentsOf.get(t);
      if (!entry) {
        this.dependentsOf.set(t, { key: t, dependents: dependent });
        return t;
      }
      entry.dependents = withDependent(entry.dependents, dependent);
      return entry.key;
    });
    this.targetsOf.set(dependent, shared);
  }

  remove(dependent: string): void {
    const old = this.targetsOf.get(dependent);
    if (!old) return;
    this.targetsOf.delete(dependent);
    this.afterOf.delete(dependent);
    for (const t of old) {
      const entry = this.dependentsOf.get(t);
      if (!entry) continue;
      const left = withoutDependent(entry.dependents, dependent);
      if (left === undefined) this.dependentsOf.delete(t);
      else entry.dependents = left;
    }
  }

  /** The per-object maps (see footprint.ts): the dependents each holds (a target may not exist). */
  footprint(): Footprint {
    return {
      "refs.targetsOf": keyed(this.targetsOf),
      "refs.dependentsOf": {
        entries: this.dependentsOf.size,
        keys: () => [...this.dependentsOf.keys()].flatMap((t) => this.dependentsList(t)),
      },
    };
  }

  dependents(target: string): string[] {
    return this.dependentsList(target).sort();
  }

  targets(dependent: string): string[] {
    return [...(this.targetsOf.get(dependent) ?? [])];
  }

  /** True when `dependent` names `target` only by an after-create association (Reference.afterCreate). */
  associates(dependent: string, target: string): boolean {
    return this.afterOf.get(dependent)?.has(target) ?? false;
  }

  /** The first target of `dependent` of the given kind (no copy: called on every enqueue). */
  targetOfKind(dependent: string, kind: string): string | undefined {
    const prefix = `${kind}/`;
    return this.targetsOf.get(dependent)?.find((t) => t.startsWith(prefix));
  }

  /**
   * A cycle of references through `key`: the keys along the shortest path from `key` back to
   * itself (`[key, ..., key]`), or undefined. Such objects each wait for the next to be Ready,
   * forever: the runtime reports the cycle instead (ReferenceCycle). Breadth-first over what
   * `key` reaches: the few objects of its chains, not the index. After-create associations are
   * no such wait (the object is created and Ready without them): they close no cycle.
   */
  cycleThrough(key: string): string[] | undefined {
    const parent = new Map<string, string>();
    const queue = [key];
    for (let i = 0; i < queue.length; i++) {
      const at = queue[i]!;
      for (const next of this.createTargets(at)) {
        if (next === key) {
          const path = [key];
          for (let k: string | undefined = at; k !== key && k !== undefined; k = parent.get(k))
            path.splice(1, 0, k);
          return [...path, key];
        }
        if (parent.has(next)) continue;
        parent.set(next, at);
        queue.push(next);
      }
    }
    return undefined;
  }

  /** The targets `dependent` waits for before its create: all but its after-create associations. */
  private createTargets(dependent: string): readonly string[] {
    const all = this.targetsOf.get(dependent) ?? [];
    const after = this.afterOf.get(dependent);
    return after ? all.filter((t) => !after.has(t)) : all;
  }

  /** True when following references (after-create associations too) from `from` leads to `to`. */
  reaches(from: string, to: string): boolean {
    const seen = new Set([from]);
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      for (const next of this.targetsOf.get(queue[i]!) ?? []) {
        if (next === to) return true;
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return false;
  }

  /**
   * The keys in dependency order: what references nothing indexed first, then what references
   * only those, and so on; within a level, what has the longest chain of dependents after it
   * first (a NetworkGateway that Routes wait for before a Subnet nothing waits for), then what
   * `slow` says the service takes a while to finish (it pends after its create); ties by key.
   * A backlog worked in this order finds each object's references already Ready instead of
   * reaching, say, every Volume only after every Route.
   */
  inDependencyOrder(keys: Iterable<string>, slow: (key: string) => boolean = () => false): string[] {
    const depth = this.longestPath((k) => this.createTargets(k));
    const height = this.longestPath((k) =>
      this.dependentsList(k).filter((d) => !this.afterOf.get(d)?.has(k)),
    );
    return [...keys]
      .map((key) => ({ key, d: depth(key), h: height(key), s: slow(key) ? 1 : 0 }))
      .sort((a, b) => a.d - b.d || b.h - a.h || b.s - a.s || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((e) => e.key);
  }

  private dependentsList(target: string): string[] {
    const d = this.dependentsOf.get(target)?.dependents;
    return d === undefined ? [] : typeof d === "string" ? [d] : [...d];
  }

  private learnKindEdge(target: string, dependent: string): void {
    let dependents = this.kindDependents.get(target);
    if (!dependents) {
      dependents = new Set();
      this.kindDependents.set(target, dependents);
    }
    if (dependents.has(dependent)) return;
    dependents.add(dependent);
    this.kindLevels = new Map();
  }

  /**
   * How many steps the chains of references starting at `kind` take, from the kinds seen
   * referencing each other so far: one for the kind itself (PENDING_KIND_WEIGHT when `pending`
   * says the service keeps it pending after a create: that wait is on the path of all that
   * follows) plus the longest level among the kinds referencing it. A backlog worked highest
   * level first starts the long chains (Deployment, Network, a pending Subnet) while the short
   * ones (a Route, an attachment) fill the gaps. A kind whose objects order themselves among each
   * other (`ordersItself`: a user's observer grant before the other roles) takes one step more.
   * `pending` and `ordersItself` must answer the same on every call.
   */
  kindLevel(
    kind: string,
    pending: (kind: string) => boolean,
    ordersItself: (kind: string) => boolean = () => false,
  ): number {
    const known = this.kindLevels.get(kind); // the usual case: asked on every queue add
    if (known !== undefined) return known;
    const visiting = new Set<string>();
    const level = (k: string): number => {
      const known = this.kindLevels.get(k);
      if (known !== undefined) return known;
      if (visiting.has(k)) return 0; // a cycle of kinds: any order will do
      visiting.add(k);
      let after = 0;
      for (const d of this.kindDependents.get(k) ?? []) after = Math.max(after, level(d));
      visiting.delete(k);
      const n = (pending(k) ? PENDING_KIND_WEIGHT : 1) + (ordersItself(k) ? 1 : 0) + after;
      this.kindLevels.set(k, n);
      return n;
    };
    return level(kind);
  }

  /** The longest path from a key along `next` (memoized; a cycle counts as the end of a path). */
  private longestPath(next: (key: string) => Iterable<string>): (key: string) => number {
    const known = new Map<string, number>();
    const visiting = new Set<string>();
    const length = (key: string): number => {
      const k = known.get(key);
      if (k !== undefined) return k;
      if (visiting.has(key)) return 0; // a cycle: the specs are wrong, any order will do
      visiting.add(key);
      let n = 0;
      for (const t of next(key)) n = Math.max(n, length(t) + 1);
      visiting.delete(key);
      known.set(key, n);
      return n;
    };
    return length;
  }
}

function sameSet(a: ReadonlySet<string> | undefined, b: ReadonlySet<string>): boolean {
  if ((a?.size ?? 0) !== b.size) return false;
  for (const x of b) if (!a!.has(x)) return false;
  return true;
}

/** The index entries of an object's references: its Account and every target, and which of them are after-create associations. */
export function referenceKeys(
  namespace: string,
  accountName: string,
  references: readonly Reference[],
): { targets: string[]; after: string[] } {
  const key = (r: Reference) => objectKey(r.kind, namespace, r.name);
  return {
    targets: [accountKey(namespace, accountName), ...references.filter((r) => !r.afterCreate).map(key)],
    after: references.filter((r) => r.afterCreate).map(key),
  };
}

/** Queue key of the Account a managed object uses. */
export function accountKey(namespace: string, accountName: string): string {
  return objectKey("Account", namespace, accountName);
}

/** A cycle's keys as a user reads them: `Deployment web -> ResourceGroup rg -> Deployment web`. */
export function describeCycle(keys: readonly string[]): string {
  return keys
    .map((k) => {
      const { kind, name } = parseKey(k);
      return `${kind} ${name}`;
    })
    .join(" -> ");
}

/**
 * A target's dependents, kept by how many there are: most targets have one (the string), many a
 * few (an exact-size array: a Set of two took ~330 B, a Set's smallest table), a few very many
 * (an Account, a shared network: a Set, whose add and delete do not grow with the count).
 */
type Dependents = string | readonly string[] | Set<string>;

/** Dependents kept in an array up to this many; a Set beyond. */
export const DEPENDENTS_IN_ARRAY = 8;

/** `dependents` with `dependent` added (a new value, or the Set itself changed). */
export function withDependent(dependents: Dependents, dependent: string): Dependents {
  if (typeof dependents === "string") return dependents === dependent ? dependents : [dependents, dependent];
  if (dependents instanceof Set) return dependents.add(dependent);
  if (dependents.includes(dependent)) return dependents;
  // Copied, not pushed onto: an array grown by push keeps room for 16 more.
  return dependents.length < DEPENDENTS_IN_ARRAY
    ? [...dependents, dependent]
    : new Set([...dependents, dependent]);
}

/** `dependents` without `dependent`; undefined when none is left. */
export function withoutDependent(dependents: Dependents, dependent: string): Dependents | undefined {
  if (typeof dependents === "string") return dependents === dependent ? undefined : dependents;
  if (dependents instanceof Set) {
    dependents.delete(dependent);
    return dependents.size === 0 ? undefined : dependents;
  }
  if (!dependents.includes(dependent)) return dependents;
  const left = dependents.filter((d) => d !== dependent);
  return left.length === 1 ? left[0] : left;
}
