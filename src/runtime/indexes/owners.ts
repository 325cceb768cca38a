import { type Footprint, keyed } from "../../lib/index.ts";
import type { ObjectStore } from "../client/index.ts";
import type { ManagedObject } from "../sdk/index.ts";
import {
  Annotation,
  isCanonicalHref,
  objectKey,
  parseKey,
  Reason,
  type TerminalError,
  terminal,
} from "../sdk/index.ts";

/**
 * One custom resource's claim on service hrefs, as the informer cache shows it. Kept small:
 * there is one per managed resource, and the href strings are the cache's own.
 */
interface Claim {
  key: string;
  namespace: string;
  /** spec.accountRef.name: which service account the hrefs live in (see OwnerIndex scope). */
  account: string;
  /** managementPolicy Manage: it writes and deletes, so at most one may hold an href. */
  manage: boolean;
  /** The hrefs it claims: nearly always one, kept as the string then (an array of one is 56 B). */
  hrefs: string | readonly string[];
  /** status.href: what the operator recorded after observing or creating it. */
  recorded: string | undefined;
  /** metadata.creationTimestamp as the apiserver wrote it (ISO 8601 sorts as text). */
  created: string;
  /** Hrefs this process let it manage: it keeps them against claims that come later. */
  granted?: readonly string[];
}

/** Who manages an href, for messages. */
export interface Owner {
  key: string;
  kind: string;
  namespace: string;
  name: string;
}

/**
 * The service account a resource's Account reaches (its `accountId`), or undefined when unknown.
 * Some hrefs are only unique within an account (`/api/permissions/<user>-<role>`).
 */
export type ScopeOf = (namespace: string, accountName: string) => string | undefined;

/**
 * Whom an owner's name may be shown to: `own namespace` (the operator: a tenant never learns
 * another namespace's resource names) or `every namespace` (plan, run by a reader who may list
 * them all and sees the owner anyway).
 */
export type OwnerVisibility = "own namespace" | "every namespace";

/** Scopes hrefs by the `accountId` of the Account in the store (read when asked: it may change). */
export function accountIdScope(store: () => ObjectStore): ScopeOf {
  return (namespace, name) => {
    const spec = store().get("Account", namespace, name)?.spec as { accountId?: unknown } | undefined;
    return spec?.accountId === undefined ? undefined : String(spec.accountId);
  };
}

/**
 * Which custom resource manages each service href, across every namespace and kind, kept from
 * informer events (no scan per reconcile). A resource claims the hrefs its `cloud.svc.io/href`
 * annotation, `status.href` and `status.replaces` name, in canonical form. Among the `Manage`
 * claimants of one href in one service account, the owner is, in this order: the one that
 * recorded it in status, the one this process already let manage it, the oldest, the first by
 * key. So an owner never loses an href to a newcomer, and two newcomers are decided the same way
 * by every replica. `ObserveOnly` claimants never own: they never write.
 */
export class OwnerIndex {
  private readonly byKey = new Map<string, Claim>();
  /** Claims per href: nearly always one, kept without an array then (one per resource adds up). */
  private readonly byHref = new Map<string, Claim | Claim[]>();
  private readonly scopeOf: ScopeOf;
  private readonly visibility: OwnerVisibility;

  constructor(scopeOf: ScopeOf = () => undefined, visibility: OwnerVisibility = "own namespace") {
    this.scopeOf = scopeOf;
    this.visibility = visibility;
  }

  /**
   * Indexes what `object` claims now. Returns the other Manage claimants of each href it stopped
   * managing: the owner went away, so they may adopt (wake them rather than wait for a resync).
   */
  set(kind: string, object: ManagedObject): string[] {
    const next = claimOf(kind, object);
    const old = this.byKey.get(next.key);
    if (old && sameClaim(old, next)) return [];
    // The map keeps the key it was first given: the claim holds that copy, not one more.
    if (old) next.key = old.key;
    if (old?.granted && next.manage) {
      const kept = old.granted.filter((h) => hrefsOf(next).includes(h));
      if (kept.length > 0) next.granted = kept;
    }
    const freed = old ? this.drop(old, next) : [];
    this.byKey.set(next.key, next);
    for (const href of hrefsOf(next)) {
      const claims = this.on(href);
      this.byHref.set(href, claims.length === 0 ? next : [...claims, next]);
    }
    return freed;
  }

  /** Forgets a deleted resource; returns the Manage claimants of the hrefs it managed. */
  remove(key: string): string[] {
    const old = this.byKey.get(key);
    if (!old) return [];
    this.byKey.delete(key);
    return this.drop(old, undefined);
  }

  /** The per-object maps (see footprint.ts): claims by resource, and by href (the claimants). */
  footprint(): Footprint {
    return {
      "owners.byKey": keyed(this.byKey),
      "owners.byHref": {
        entries: this.byHref.size,
        keys: () => [...this.byHref.keys()].flatMap((href) => this.on(href).map((c) => c.key)),
      },
    };
  }

  /**
   * Who manages `href`, asked by `object` about an href it names itself: undefined when it may
   * (it then keeps the href against later claims), else the owner.
   */
  decide(kind: string, object: ManagedObject, href: string): Owner | undefined {
    const asker = this.current(kind, object);
    const rivals = this.claimants(href, asker).filter((c) => c.manage);
    if (asker.manage) rivals.push(asker);
    rivals.sort((a, b) => rank(a, b, href));
    const winner = rivals[0];
    if (!winner) return undefined;
    // The decision sticks: a claim that outranks it later (an older resource re-pointed at this
    // href while the winner's adoption is in flight) must not make two writers.
    if (this.byKey.get(winner.key) === winner && !winner.granted?.includes(href))
      winner.granted = [...(winner.granted ?? []), href];
    return winner.key === asker.key ? undefined : ownerOf(winner.key);
  }

  /**
   * Throws AlreadyManaged when another resource manages an href `object` names to write. Not the
   * object a replacement supersedes: that one is only deleted, and left when another manages it.
   */
  require(kind: string, object: ManagedObject): void {
    for (const href of claimedHrefs(object)) {
      if (href === object.status?.replaces && href !== object.status.href) continue;
      const owner = this.decide(kind, object, href);
      if (owner) throw alreadyManaged(kind, object.metadata.namespace, href, owner, this.visibility);
    }
  }

  /** Why `object`, being deleted, must leave `href` in the service: another resource manages it. */
  retainReason(kind: string, object: ManagedObject, href: string): string | undefined {
    const owner = this.decide(kind, object, href);
    return owner
      ? `it is managed by ${ownerLabel(kind, object.metadata.namespace, owner, this.visibility)}`
      : undefined;
  }

  /**
   * The lookup matches `object` may adopt. `identity`: the lookup finds the object itself (a grant,
   * by user and role), so a match another resource manages is that one's: AlreadyManaged, or left
   * out while `object` is being deleted. Otherwise a match is a namesake (by name), and one any
   * other resource names, managing or observing, was not created by `object`.
   */
  adoptable<T>(
    kind: string,
    object: ManagedObject,
    matches: T[],
    hrefOf: (m: T) => string,
    identity: boolean,
  ): T[] {
    if (!identity) return matches.filter((m) => !this.heldElsewhere(kind, object, hrefOf(m)));
    const out: T[] = [];
    for (const m of matches) {
      const owner = this.managedElsewhere(kind, object, hrefOf(m));
      if (owner === undefined) out.push(m);
      else if (!object.metadata.deletionTimestamp)
        throw alreadyManaged(kind, object.metadata.namespace, hrefOf(m), owner, this.visibility);
    }
    return out;
  }

  /**
   * Another resource that manages `href`, asked by `object` about an href it does not name yet
   * (a lookup's match): any Manage claimant wins over such a newcomer.
   */
  managedElsewhere(kind: string, object: ManagedObject, href: string): Owner | undefined {
    const asker = this.current(kind, object);
    const owner = this.claimants(href, asker)
      .filter((c) => c.manage)
      .sort((a, b) => rank(a, b, href))[0];
    return owner ? ownerOf(owner.key) : undefined;
  }

  /** Whether another resource, managing or observing, names `href` in `object`'s service account. */
  heldElsewhere(kind: string, object: ManagedObject, href: string): boolean {
    return this.claimants(href, this.current(kind, object)).length > 0;
  }

  /** The indexed claim of `object`, or one made from it when the index has not seen it yet. */
  private current(kind: string, object: ManagedObject): Claim {
    const key = objectKey(kind, object.metadata.namespace, object.metadata.name);
    const indexed = this.byKey.get(key);
    const made = claimOf(kind, object);
    return indexed && sameClaim(indexed, made) ? indexed : made;
  }

  /** The other claims on `href` in the asker's service account (unknown accounts match all). */
  private claimants(href: string, asker: Claim): Claim[] {
    const scope = this.scopeOf(asker.namespace, asker.account);
    return this.on(href).filter((c) => {
      if (c.key === asker.key) return false;
      if (scope === undefined) return true;
      const theirs = this.scopeOf(c.namespace, c.account);
      return theirs === undefined || theirs === scope;
    });
  }

  private on(href: string): Claim[] {
    const claims = this.byHref.get(href);
    return claims === undefined ? [] : Array.isArray(claims) ? claims : [claims];
  }

  /** Unlinks `old`; the Manage claimants left on each href `old` managed and `next` does not. */
  private drop(old: Claim, next: Claim | undefined): string[] {
    const wake = new Set<string>();
    for (const href of hrefsOf(old)) {
      const claims = this.on(href).filter((c) => c !== old);
      if (claims.length === 0) this.byHref.delete(href);
      else this.byHref.set(href, claims.length === 1 ? claims[0]! : claims);
      const stillManaged = next?.manage === true && hrefsOf(next).includes(href);
      if (!old.manage || stillManaged) continue;
      for (const c of claims) if (c.manage && c.key !== old.key) wake.add(c.key);
    }
    return [...wake];
  }
}

/**
 * AlreadyManaged: a resource in `namespace` names an href `owner` manages. Says what to change.
 * An owner in another namespace is named only to a reader of every namespace (`visibility`): one
 * tenant never learns another's resource names. The operator's log has it (the error's `logged`
 * fields), for the cluster's admins.
 */
export function alreadyManaged(
  kind: string,
  namespace: string,
  href: string,
  owner: Owner,
  visibility: OwnerVisibility = "own namespace",
): TerminalError {
  const label = ownerLabel(kind, namespace, owner, visibility);
  const named = visibility === "every namespace" || owner.namespace === namespace;
  const error = terminal(
    Reason.AlreadyManaged,
    `${href} is already managed by ${label}; this resource will not adopt, update or delete it. Point ` +
      `${Annotation.href} at another object or remove it, or set spec.managementPolicy: ObserveOnly to ` +
      `only observe it; it is adopted once ${named ? `${owner.namespace}/${owner.name}` : "that resource"} lets it go`,
  );
  error.logged = { claimed: href, owner: `${owner.kind} ${owner.namespace}/${owner.name}` };
  return error;
}

/**
 * The owner as a resource in `namespace` may read it: `namespace/name` (with the kind when it is
 * not `kind`) in its own namespace, else only that it is in another; by name wherever it is to a
 * reader of every namespace.
 */
export function ownerLabel(
  kind: string,
  namespace: string,
  owner: Owner,
  visibility: OwnerVisibility = "own namespace",
): string {
  if (owner.namespace !== namespace && visibility === "own namespace")
    return "a resource in another namespace";
  const name = `${owner.namespace}/${owner.name}`;
  return owner.kind === kind ? name : `${name} (${owner.kind})`;
}

/**
 * The hrefs an object names: the annotation, the recorded status, a replacement's predecessor
 * (status.replaces, which only the operator writes). Only canonical ones: an href in another
 * spelling names no object (it is refused before anything is written), and the index compares
 * hrefs as strings.
 */
export function claimedHrefs(object: ManagedObject): string[] {
  const annotations = object.metadata.annotations ?? {};
  const out: string[] = [];
  for (const href of [annotations[Annotation.href], object.status?.href, object.status?.replaces]) {
    if (isCanonicalHref(href) && !out.includes(href)) out.push(href);
  }
  return out;
}

function claimOf(kind: string, object: ManagedObject): Claim {
  const { namespace, name, creationTimestamp } = object.metadata;
  // The raw spec, as the CRD defaults it: the index must not depend on the spec being valid.
  const spec = (object.spec ?? {}) as { accountRef?: { name?: unknown }; managementPolicy?: unknown };
  const account = spec.accountRef?.name;
  const recorded = object.status?.href;
  return {
    key: objectKey(kind, namespace, name),
    namespace,
    account: typeof account === "string" ? account : "default",
    manage: spec.managementPolicy !== "ObserveOnly",
    hrefs: compactHrefs(claimedHrefs(object)),
    recorded: typeof recorded === "string" && recorded !== "" ? recorded : undefined,
    created: creationTimestamp instanceof Date ? creationTimestamp.toISOString() : (creationTimestamp ?? ""),
  };
}

function sameClaim(a: Claim, b: Claim): boolean {
  return (
    a.key === b.key &&
    a.account === b.account &&
    a.manage === b.manage &&
    a.recorded === b.recorded &&
    a.created === b.created &&
    sameHrefs(hrefsOf(a), hrefsOf(b))
  );
}

function sameHrefs(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((h, i) => h === b[i]);
}

const NO_HREFS: readonly string[] = Object.freeze([]);

/**
 * A claim's hrefs as kept: one as the string, none as one shared empty list, more as a copy (an
 * array filled by push keeps room for 16 more: 184 B).
 */
export function compactHrefs(hrefs: readonly string[]): string | readonly string[] {
  if (hrefs.length === 1) return hrefs[0]!;
  return hrefs.length === 0 ? NO_HREFS : hrefs.slice();
}

/** A claim's hrefs as a list (see compactHrefs). */
function hrefsOf(claim: Pick<Claim, "hrefs">): readonly string[] {
  return typeof claim.hrefs === "string" ? [claim.hrefs] : claim.hrefs;
}

/** Owner order for `href`: recorded, granted, oldest (no timestamp last), then key. */
function rank(a: Claim, b: Claim, href: string): number {
  const recorded = Number(b.recorded === href) - Number(a.recorded === href);
  if (recorded !== 0) return recorded;
  const granted = Number(b.granted?.includes(href) ?? false) - Number(a.granted?.includes(href) ?? false);
  if (granted !== 0) return granted;
  if (a.created !== b.created) {
    if (a.created === "") return 1;
    if (b.created === "") return -1;
    return a.created < b.created ? -1 : 1;
  }
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function ownerOf(key: string): Owner {
  return { key, ...parseKey(key) };
}
