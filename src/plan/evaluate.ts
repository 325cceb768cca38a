import type { Item } from "../inventory/index.ts";
import { type Action, type Admitted, admitManifest, desiredOf, stopFor } from "../inventory/index.ts";
import { OwnerIndex, ReferenceIndex, referenceKeys, type ScopeOf } from "../runtime/indexes/index.ts";
import {
  ambiguous,
  LinkCheck,
  looksUp,
  observedGone,
  observeOnlyWithoutHref,
  referenceCycle,
  resolveReferences,
} from "../runtime/reconcile/index.ts";
import type { AnyManagedKind, KeySources, ManagedObject, ObjectMeta } from "../runtime/sdk/index.ts";
import { Annotation, API_VERSION, isTrue, NameLookup, objectKey } from "../runtime/sdk/index.ts";
import type { PlanAccount, PlanAccounts } from "./accounts.ts";
import { converge, type Result, STOPPED } from "./answer.ts";
import type { LiveObjects } from "./live.ts";
import type { Manifest } from "./manifests.ts";

interface Node {
  manifest: Manifest;
  kind: AnyManagedKind;
  object: Record<string, unknown>;
  namespace: string;
  name: string;
  key: string;
  live: ManagedObject | undefined;
  admitted: Admitted;
  result?: Promise<Result>;
}

export interface PlanInput {
  manifests: Manifest[];
  kinds: readonly AnyManagedKind[];
  /** Namespace of a manifest that names none. */
  namespace: string;
  live: LiveObjects;
  /** False with --no-cluster: the manifests alone say what exists. */
  cluster: boolean;
  accounts: PlanAccounts;
  /** Which service account an Account reaches: hrefs are compared within one (scope.ts). */
  scopeOf: ScopeOf;
  /** The ConfigMap and Secret keys specs read (sources.ts). */
  sources: KeySources;
}

const metadataOf = (o: Record<string, unknown>) => (o.metadata ?? {}) as Partial<ObjectMeta>;

/**
 * For each managed manifest, what the operator would do now (answer.ts), asking the reconciler's
 * own questions (decide.ts) in its order: admission and validation, references, desired state,
 * which service object it stands for (href, lookup, adoption), then what converge does with it.
 * Referenced manifests are planned first; nothing is written anywhere.
 */
export class Planner {
  private readonly nodes = new Map<string, Node>();
  private readonly order: Node[] = [];
  private readonly refs = new ReferenceIndex();
  private readonly owners: OwnerIndex;
  private readonly names = new NameLookup();
  private readonly links = new LinkCheck();
  private readonly byHref = new WeakMap<object, Map<string, Item>>();
  private readonly input: PlanInput;

  constructor(input: PlanInput) {
    this.input = input;
    // Every object plan holds, its reader could list: an owner in another namespace is named.
    this.owners = new OwnerIndex(input.scopeOf, "every namespace");
    for (const kind of input.kinds)
      for (const obj of input.live.list(kind.kind)) this.owners.set(kind.kind, obj);
    for (const manifest of input.manifests) this.add(manifest);
    for (const node of this.order)
      if (node.admitted.ok) {
        const { targets, after } = referenceKeys(node.namespace, "", node.admitted.references);
        this.refs.set(node.key, targets.slice(1), after);
      }
  }

  /** The managed manifests, planned, in input order. */
  async plan(): Promise<Result[]> {
    const out: Result[] = [];
    for (const node of this.order) out.push(await this.evaluate(node));
    return out;
  }

  private add(manifest: Manifest): void {
    const o = manifest.object;
    const kind = this.input.kinds.find((k) => k.kind === o.kind);
    if (o.apiVersion !== API_VERSION || !kind) return;
    const meta = metadataOf(o);
    const namespace = meta.namespace ?? this.input.namespace;
    const name = String(meta.name ?? "");
    const object = { ...o, metadata: { ...meta, namespace } };
    const key = objectKey(kind.kind, namespace, name);
    const live = this.input.live.get(kind.kind, namespace, name);
    const old = live && {
      apiVersion: API_VERSION,
      kind: kind.kind,
      metadata: live.metadata,
      spec: live.spec,
    };
    let admitted = admitManifest(kind, object, old);
    const twice = this.nodes.get(key);
    if (twice)
      admitted = {
        ok: false,
        action: "invalid",
        message: `${kind.kind} ${namespace}/${name} is also in ${twice.manifest.source}`,
      };
    const node: Node = { manifest, kind, object, namespace, name, key, live, admitted };
    if (!twice) this.nodes.set(key, node);
    this.order.push(node);
  }

  private evaluate(node: Node): Promise<Result> {
    node.result ??= this.decide(node);
    return node.result;
  }

  /**
   * What the operator would do with the manifest; marked as waiting on each parent that cannot be
   * applied as it is but is Ready in the cluster (its children are planned against that one).
   */
  private async decide(node: Node): Promise<Result> {
    const parents: string[] = [];
    const result = await this.decideOwn(node, parents);
    if (parents.length === 0) return result;
    const it = parents.length > 1 ? "them" : "it";
    const waiting = `waits for ${parents.join(" and ")}: planned against ${it} as the cluster holds ${it} (Ready)`;
    return { ...result, message: result.message ? `${waiting}; ${result.message}` : waiting };
  }

  /** The manifest's own action; `parents` gets the stopped parents it was planned past. */
  private async decideOwn(node: Node, parents: string[]): Promise<Result> {
    const { kind, namespace, name } = node;
    const base = {
      kind: kind.kind,
      namespace,
      name,
      source: node.manifest.source,
      changes: [],
      writeOnly: [],
    };
    const stop = (action: Action, message: string): Result => ({ ...base, action, message });
    const a = node.admitted;
    if (!a.ok) return stop(a.action, a.message);
    const cycle = this.refs.cycleThrough(node.key);
    if (cycle) return stop("blocked", referenceCycle(namespace, a.references, cycle).message);
    const annotations = { ...node.live?.metadata.annotations, ...metadataOf(node.object).annotations };
    if (annotations[Annotation.paused] === "true")
      return stop("no change", `paused (${Annotation.paused}): the operator leaves it alone`);
    const account = await this.input.accounts.get(namespace, (a.spec.accountRef as { name: string }).name);
    if ("problem" in account) return stop("blocked", account.problem);

    // References: planned first when they are manifests too, else as the cluster holds them.
    const href = annotations[Annotation.href] || node.live?.status?.href || undefined;
    const planned = new Map<string, ManagedObject>();
    const waits: string[] = [];
    for (const r of a.references) {
      const target = this.nodes.get(objectKey(r.kind, namespace, r.name));
      if (!target) continue;
      if (r.afterCreate) {
        // No wait (the target may name this object back): the object it stands for, if any.
        const associated = await this.associated(target, account);
        if (associated) planned.set(target.key, associated);
        continue;
      }
      const t = await this.evaluate(target);
      if (STOPPED.has(t.action)) {
        // A parent the cluster holds Ready: this one's own action, as it resolves to that parent.
        if (isTrue(target.live?.status?.conditions, "Ready")) {
          parents.push(`${r.kind} ${r.name} (${t.action})`);
          continue;
        }
        return stop("blocked", `spec.${r.field}: ${r.kind} ${r.name} is ${t.action}: fix it first`);
      }
      if (!t.href) waits.push(`${r.kind} ${r.name}`);
      else planned.set(target.key, usable(target, t));
    }
    if (waits.length > 0)
      return href
        ? stop("blocked", `waits for ${waits.join(", ")}, which this plan creates: plan again once created`)
        : stop("create", `after ${waits.join(", ")} ${waits.length > 1 ? "are" : "is"} created`);
    let refs: ReturnType<typeof resolveReferences>["refs"];
    try {
      ({ refs } = resolveReferences(
        { get: (k, ns, n) => planned.get(objectKey(k, ns, n)) ?? this.input.live.get(k, ns, n) },
        namespace,
        a.references,
      ));
    } catch (error) {
      const s = stopFor(error);
      return stop(
        s.action,
        this.input.cluster ? s.message : `${s.message} (--no-cluster: only the manifests are read)`,
      );
    }
    const observeOnly = a.spec.managementPolicy === "ObserveOnly";
    const sources = await this.sources(node, a.spec, observeOnly);
    if ("stop" in sources) return stop(sources.stop.action, sources.stop.message);
    const d = await desiredOf({ ...a, kind, refs, client: account.client, names: this.names, ...sources });
    if (!d.ok) return stop(d.action, d.message);

    const claimant: ManagedObject = {
      metadata: { ...node.live?.metadata, namespace, name, annotations },
      spec: a.spec,
      status: node.live?.status,
    };
    try {
      this.owners.set(kind.kind, claimant);
      if (!observeOnly) this.owners.require(kind.kind, claimant);
    } catch (error) {
      const s = stopFor(error);
      return stop(s.action, s.message);
    }
    const options = { observeOnly, applied: node.live?.status?.applied };
    if (!href) {
      if (observeOnly) return stop("invalid", observeOnlyWithoutHref().message);
      return this.withoutHref(node, base, account, d.desired, claimant, annotations);
    }
    const found = await this.observe(kind, account, href, d.desired);
    if ("stop" in found) return stop(found.stop.action, found.stop.message);
    if (found.observed === undefined)
      return observeOnly
        ? stop("blocked", observedGone(href).message)
        : stop("create", `the service object at ${href} is gone: the operator creates it again`);
    return converge(kind, { ...base, href }, d.desired, found.observed, options);
  }

  /** No href: a lookup (a pending create, a kind that adopts) may find the object; else a create. */
  private async withoutHref(
    node: Node,
    base: Omit<Result, "action">,
    account: PlanAccount,
    desired: unknown,
    claimant: ManagedObject,
    annotations: Record<string, string>,
  ): Promise<Result> {
    const { kind } = node;
    const pending = annotations[Annotation.createPending] !== undefined;
    try {
      if (looksUp(kind, pending)) {
        let candidates = await kind.lookup(account.client, desired);
        const hrefOf = (c: unknown) => kind.hrefOf(c);
        candidates = this.owners.adoptable(
          kind.kind,
          claimant,
          candidates,
          hrefOf,
          kind.adoptExisting === true,
        );
        if (candidates.length > 1)
          return { ...base, action: "blocked", message: ambiguous(candidates.map(hrefOf), pending).message };
        if (candidates.length === 1) {
          const found = candidates[0];
          const then = converge(kind, { ...base, href: hrefOf(found) }, desired, found, {
            observeOnly: false,
          });
          const more =
            then.action === "no change"
              ? ""
              : `; then ${then.action}${then.message ? `: ${then.message}` : ""}`;
          return {
            ...then,
            action: "adopt",
            message: `${pending ? "a pending create made it" : "it exists already"}${more}`,
          };
        }
      }
      const spec = (node.admitted as { spec: Record<string, unknown> }).spec;
      const accountKey = `${node.namespace}/${(spec.accountRef as { name: string }).name}`;
      await this.links.require(accountKey, account.client, kind.links?.(spec) ?? []);
    } catch (error) {
      const s = stopFor(error);
      return { ...base, action: s.action, message: s.message };
    }
    return { ...base, action: "create" };
  }

  /** The keys the spec reads, as the operator reads them (never for ObserveOnly), or why it would wait. */
  private async sources(
    node: Node,
    spec: Record<string, unknown>,
    observeOnly: boolean,
  ): Promise<{ sources?: Record<string, Buffer> } | { stop: { action: Action; message: string } }> {
    const wanted = node.kind.keySources?.(spec) ?? [];
    if (wanted.length === 0 || observeOnly) return {};
    try {
      return { sources: (await this.input.sources.values(node.key, node.namespace, wanted)).values };
    } catch (error) {
      const s = stopFor(error);
      const alone = this.input.cluster ? "" : " (--no-cluster: only the manifests are read)";
      return { stop: { action: s.action, message: `${s.message}${alone}` } };
    }
  }

  /**
   * The manifest an after-create association names, as a Ready custom resource when it names an
   * existing service object (its href, and what the index shows of it); undefined when this plan
   * would create it: the association is then made after that create, as the operator does.
   */
  private async associated(target: Node, account: PlanAccount): Promise<ManagedObject | undefined> {
    if (!target.admitted.ok) return undefined;
    const annotations = { ...target.live?.metadata.annotations, ...metadataOf(target.object).annotations };
    const href = annotations[Annotation.href] || target.live?.status?.href;
    if (!href) return undefined;
    let atProvider = target.live?.status?.atProvider ?? {};
    const listing = await account.inventory.list(target.kind).catch(() => undefined);
    if (listing && "items" in listing)
      atProvider = listing.items.find((i) => i.href === href)?.at ?? atProvider;
    return usable(target, { href, atProvider });
  }

  /**
   * The object at `href`, from the kind's collection index (listed once per account: the calls do
   * not grow with the number of manifests); one read of the href confirms an object the index
   * does not show (gone, or in a scope the listing missed).
   */
  private async observe(
    kind: AnyManagedKind,
    account: PlanAccount,
    href: string,
    desired: unknown,
  ): Promise<{ observed: unknown } | { stop: { action: Action; message: string } }> {
    try {
      const listing = await account.inventory.list(kind);
      if ("items" in listing) {
        let index = this.byHref.get(listing);
        if (!index) {
          index = new Map(listing.items.map((i) => [i.href, i]));
          this.byHref.set(listing, index);
        }
        const item = index.get(href);
        if (item) return { observed: item.observed };
      }
      return { observed: await kind.observe(account.client, href, desired) };
    } catch (error) {
      return { stop: stopFor(error) };
    }
  }
}

/** A planned manifest as a Ready custom resource: what a dependent's reference resolves to. */
function usable(node: Node, r: Pick<Result, "href" | "atProvider">): ManagedObject {
  return {
    metadata: { name: node.name, namespace: node.namespace },
    status: {
      href: r.href,
      atProvider: r.atProvider ?? {},
      conditions: [
        { type: "Ready", status: "True", reason: "Available", message: "", lastTransitionTime: "" },
      ],
    },
  };
}
