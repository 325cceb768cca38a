import { ClusterError, type ClusterReader } from "../inventory/index.ts";
import { accountDefinition } from "../kinds/account/schema.ts";
import type { AnyManagedKind, ManagedObject } from "../runtime/sdk/index.ts";
import { GROUP, objectKey } from "../runtime/sdk/index.ts";

/** A kind the cluster would not list across namespaces, and the apiserver's words for why. */
export interface Refused {
  plural: string;
  reason: string;
}

/**
 * The custom resources the cluster holds, Accounts included: one list across every namespace per
 * kind (an href another namespace's resource manages is seen), whatever the number of objects
 * (none at all with `--no-cluster`). A kind the kubeconfig's user may not list at the cluster
 * scope (403) is listed in the manifests' namespaces only, and said (`refused`).
 */
export class LiveObjects {
  private readonly objects = new Map<string, ManagedObject>();
  private readonly byKind = new Map<string, ManagedObject[]>();
  /** The kinds read only in the manifests' namespaces: other namespaces were not checked. */
  readonly refused: Refused[] = [];

  static async load(
    reader: ClusterReader | undefined,
    kinds: readonly AnyManagedKind[],
    namespaces: Iterable<string>,
  ): Promise<LiveObjects> {
    const live = new LiveObjects();
    if (!reader) return live;
    const own = [...new Set(namespaces)].sort();
    for (const kind of kinds)
      for (const obj of await live.everywhere(reader, kind, own)) live.add(kind.kind, obj);
    // Accounts only scope hrefs (which service account a resource reaches): one that cannot be
    // read counts as the same account, as the operator counts an Account missing from its cache.
    const accounts = await live.everywhere(reader, accountDefinition, own).catch((error: unknown) => {
      if (error instanceof ClusterError && error.forbidden) return [];
      throw error;
    });
    for (const obj of accounts) live.add(accountDefinition.kind, obj);
    return live;
  }

  /** A kind in every namespace; in `own` only, and said, when the cluster refuses the wider list. */
  private async everywhere(
    reader: ClusterReader,
    kind: { kind: string; plural: string },
    own: readonly string[],
  ): Promise<ManagedObject[]> {
    try {
      return await reader.listEverywhere(kind.plural);
    } catch (error) {
      if (!(error instanceof ClusterError && error.forbidden)) throw error;
      const objects: ManagedObject[] = [];
      for (const namespace of own) objects.push(...(await reader.list(kind.plural, namespace)));
      if (kind.kind !== accountDefinition.kind)
        this.refused.push({ plural: kind.plural, reason: error.reason ?? error.message });
      return objects;
    }
  }

  private add(kind: string, obj: ManagedObject): void {
    this.objects.set(objectKey(kind, obj.metadata.namespace, obj.metadata.name), obj);
    const list = this.byKind.get(kind);
    if (list) list.push(obj);
    else this.byKind.set(kind, [obj]);
  }

  get(kind: string, namespace: string, name: string): ManagedObject | undefined {
    return this.objects.get(objectKey(kind, namespace, name));
  }

  list(kind: string): readonly ManagedObject[] {
    return this.byKind.get(kind) ?? [];
  }

  /**
   * Why other namespaces were not checked, in one line, when a list across them was refused: the
   * kinds, the apiserver's words for the first, and what a resource there could hide.
   */
  uncheckedNote(kindCount: number): string | undefined {
    const first = this.refused[0];
    if (!first) return undefined;
    const what =
      this.refused.length === kindCount
        ? `the custom resources of ${GROUP}`
        : this.refused.map((r) => `${r.plural}.${GROUP}`).join(", ");
    return (
      `other namespaces not checked for owners of these hrefs: the cluster refused to list ${what} ` +
      `across namespaces (403: ${first.reason}); a resource there that manages one is not seen, so plan ` +
      "cannot say blocked for it (plan needs list at the cluster scope: see docs/plan-in-ci.md)"
    );
  }
}
