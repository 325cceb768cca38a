import type { AnyManagedKind, ManagedObject } from "../runtime/sdk/index.ts";
import { getCondition, objectKey } from "../runtime/sdk/index.ts";

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
  /** Shown higher up with its own subtree already: not expanded again. */
  repeated?: boolean;
  children: TraceNode[];
}

interface Edge {
  field: string;
  key: string;
}

/**
 * Who references whom among the custom resources of one namespace, from the kinds' own
 * reference declarations (ManagedKind.references, plus every managed resource's accountRef),
 * the way the operator's reference index learns them.
 */
export class ReferenceGraph {
  private readonly objects = new Map<string, ManagedObject>();
  private readonly targets = new Map<string, Edge[]>();
  private readonly dependents = new Map<string, Edge[]>();
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
      const edges = this.referencesOf(kind, object);
      this.targets.set(key, edges);
      for (const edge of edges) {
        const list = this.dependents.get(edge.key) ?? [];
        list.push({ field: edge.field, key });
        this.dependents.set(edge.key, list);
      }
    }
  }

  has(kind: string, namespace: string, name: string): boolean {
    return this.objects.has(objectKey(kind, namespace, name));
  }

  /**
   * The tree of `kind/name`: what it references, and what those reference in turn (up to the
   * Account), then what references it, and what references those (down to the leaves). A resource
   * met again is shown without its subtree; a cycle (an after-create association) stops there.
   */
  trace(kind: string, namespace: string, name: string): TraceNode {
    const expanded = new Set<string>();
    const rootKey = objectKey(kind, namespace, name);
    const root = this.node(rootKey, "root");
    expanded.add(rootKey);
    const walk = (key: string, direction: "references" | "referencedBy", path: Set<string>): TraceNode[] => {
      const edges = (direction === "references" ? this.targets : this.dependents).get(key) ?? [];
      return edges.map((edge) => {
        const child = this.node(edge.key, direction, edge.field);
        if (path.has(edge.key) || expanded.has(edge.key)) {
          if (child.found) child.repeated = true;
          return child;
        }
        expanded.add(edge.key);
        child.children = walk(edge.key, direction, new Set([...path, edge.key]));
        return child;
      });
    };
    const path = new Set([rootKey]);
    root.children = [...walk(rootKey, "references", path), ...walk(rootKey, "referencedBy", path)];
    return root;
  }

  private referencesOf(kind: string, object: ManagedObject): Edge[] {
    const managed = this.kinds.find((k) => k.kind === kind);
    if (!managed) return [];
    const namespace = object.metadata.namespace ?? "";
    const raw = (object.spec ?? {}) as { accountRef?: { name?: unknown } };
    const account = typeof raw.accountRef?.name === "string" ? raw.accountRef.name : undefined;
    const edges: Edge[] = account
      ? [{ field: "accountRef", key: objectKey("Account", namespace, account) }]
      : [];
    // A spec the schema refuses names its references all the same as far as the kind can tell;
    // it is shown (its Ready condition says what is wrong), its references are not guessed.
    const parsed = managed.schema.safeParse(object.spec ?? {});
    if (!parsed.success) return edges;
    for (const r of managed.references(parsed.data))
      edges.push({ field: r.field, key: objectKey(r.kind, namespace, r.name) });
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
