import type { AnyManagedKind, ManagedObject } from "../runtime/sdk/index.ts";
import { getCondition, objectKey } from "../runtime/sdk/index.ts";
import { type Edge, type EdgeLookup, type Placement, placeAll } from "./layout.ts";

/** One row of the tree: a custom resource, or one a spec names that does not exist. */
export interface TraceNode {
  kind: string;
  name: string;
  namespace: string;
  /** How it hangs off its parent row: the resource it references, or a resource that references it. */
  relation: "root" | "references" | "referencedBy";
  /** The spec field of the referencing resource (`networkRef`, `accountRef`). */
  field?: string;
  found: boolean;
  /** The Ready and Synced conditions' status; `-` when the resource has none (or does not exist). */
  ready: string;
  synced: string;
  reason: string;
  message: string;
  href: string;
  /**
   * The same pair's reference the other way, when there is one: its field (a Network's
   * `defaultRouteTableRef` naming the RouteTable that hangs below it by its `networkRef`).
   */
  backField?: string;
  children: TraceNode[];
}

/**
 * Who references whom among the custom resources of one namespace, from the kinds' own
 * reference declarations (ManagedKind.references, plus every managed resource's accountRef),
 * the way the operator's reference index learns them.
 */
export class ReferenceGraph implements EdgeLookup {
  private readonly objects = new Map<string, ManagedObject>();
  /** Each object's position in the input: the order of the rows below a resource. */
  private readonly order = new Map<string, number>();
  private readonly targetsOf = new Map<string, Edge[]>();
  private readonly dependentsOf = new Map<string, Edge[]>();
  private readonly kinds: readonly AnyManagedKind[];
  /** `routes.cloud.svc.io` by kind, for what is missing. */
  private readonly resources: ReadonlyMap<string, string>;

  constructor(
    objects: Iterable<{ kind: string; object: ManagedObject }>,
    kinds: readonly AnyManagedKind[],
    resources: ReadonlyMap<string, string>,
  ) {
    this.kinds = kinds;
    this.resources = resources;
    for (const { kind, object } of objects) {
      const key = objectKey(kind, object.metadata.namespace ?? "", object.metadata.name);
      this.objects.set(key, object);
      this.order.set(key, this.order.size);
      const edges = this.referencesOf(key, kind, object);
      this.targetsOf.set(key, edges);
      for (const edge of edges)
        this.dependentsOf.set(edge.to, [...(this.dependentsOf.get(edge.to) ?? []), edge]);
    }
  }

  has(kind: string, namespace: string, name: string): boolean {
    return this.objects.has(objectKey(kind, namespace, name));
  }

  targets(key: string): readonly Edge[] {
    return this.targetsOf.get(key) ?? [];
  }

  dependents(key: string): readonly Edge[] {
    return this.dependentsOf.get(key) ?? [];
  }

  /**
   * The tree of `kind/name`, each resource once (see placeAll): what it references, and what
   * those reference in turn (up to the Account), then everything that references it, down to
   * the leaves.
   */
  trace(kind: string, namespace: string, name: string): TraceNode {
    const rootKey = objectKey(kind, namespace, name);
    const placements = placeAll(rootKey, this);
    const rank = (p: Placement) =>
      p.direction === "references" ? -1 : (this.order.get(p.key) ?? Number.MAX_SAFE_INTEGER);
    // Above: in the order they are named; below: in the order the cluster lists them.
    const sorted = placements
      .map((p, i) => ({ p, i }))
      .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
      .map(({ p }) => p);
    const nodes = new Map<string, TraceNode>([[rootKey, this.node(rootKey, "root")]]);
    for (const p of sorted) {
      const field = p.edge.field;
      const back = (p.direction === "references" ? this.targets(p.key) : this.targets(p.parent)).find(
        (e) => e.to === (p.direction === "references" ? p.parent : p.key),
      );
      const node = this.node(p.key, p.direction, field);
      if (back) node.backField = back.field;
      nodes.set(p.key, node);
    }
    for (const p of sorted) nodes.get(p.parent)!.children.push(nodes.get(p.key)!);
    return nodes.get(rootKey)!;
  }

  private referencesOf(key: string, kind: string, object: ManagedObject): Edge[] {
    const managed = this.kinds.find((k) => k.kind === kind);
    if (!managed) return [];
    const namespace = object.metadata.namespace ?? "";
    const raw = (object.spec ?? {}) as { accountRef?: { name?: unknown } };
    const account = typeof raw.accountRef?.name === "string" ? raw.accountRef.name : undefined;
    const edges: Edge[] = account
      ? [{ from: key, to: objectKey("Account", namespace, account), field: "accountRef", afterCreate: false }]
      : [];
    // A spec the schema refuses names its references all the same as far as the kind can tell;
    // it is shown (its Ready condition says what is wrong), its references are not guessed.
    const parsed = managed.schema.safeParse(object.spec ?? {});
    if (!parsed.success) return edges;
    for (const r of managed.references(parsed.data))
      edges.push({
        from: key,
        to: objectKey(r.kind, namespace, r.name),
        field: r.field,
        afterCreate: r.afterCreate === true,
      });
    return edges;
  }

  private node(key: string, relation: TraceNode["relation"], field?: string): TraceNode {
    const [kind = "", namespace = "", name = ""] = key.split("/");
    const object = this.objects.get(key);
    const base = { kind, name, namespace, relation, ...(field ? { field } : {}), children: [] };
    if (!object) {
      const plural = this.resources.get(kind) ?? kind.toLowerCase();
      return {
        ...base,
        found: false,
        ready: "-",
        synced: "-",
        reason: "NotFound",
        message: `${plural} "${name}" not found`,
        href: "",
      };
    }
    const conditions = object.status?.conditions;
    const ready = getCondition(conditions, "Ready");
    const synced = getCondition(conditions, "Synced");
    // Why it is not Ready, or else why it is not Synced, or else what it is.
    const telling = ready?.status !== "True" ? ready : synced?.status !== "True" ? synced : ready;
    return {
      ...base,
      found: true,
      ready: ready?.status ?? "-",
      synced: synced?.status ?? "-",
      reason: telling?.reason ?? "",
      message: telling?.message ?? "",
      href: (object.status as { href?: string } | undefined)?.href ?? "",
    };
  }
}

/** Whether the node needs a look: not Ready (or missing). */
export const notReady = (node: TraceNode) => node.ready !== "True";
