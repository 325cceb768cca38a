import type { ClusterReader } from "../inventory/index.ts";
import type { AnyManagedKind, ManagedObject } from "../runtime/sdk/index.ts";
import { objectKey } from "../runtime/sdk/index.ts";

/**
 * The custom resources the cluster holds in the namespaces of the manifests: one list call per
 * kind and namespace, whatever the number of objects (none at all with `--no-cluster`).
 */
export class LiveObjects {
  private readonly objects = new Map<string, ManagedObject>();
  private readonly byKind = new Map<string, ManagedObject[]>();

  static async load(
    reader: ClusterReader | undefined,
    kinds: readonly AnyManagedKind[],
    namespaces: Iterable<string>,
  ): Promise<LiveObjects> {
    const live = new LiveObjects();
    if (!reader) return live;
    for (const namespace of [...new Set(namespaces)].sort())
      for (const kind of kinds)
        for (const obj of await reader.list(kind.plural, namespace)) live.add(kind.kind, obj);
    return live;
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
}
