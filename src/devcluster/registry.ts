import { builtinTypes } from "./builtins.ts";
import { crdResourceType, customResourceType } from "./crd.ts";
import type { Obj } from "./meta.ts";
import type { ResourceType } from "./types.ts";

/** The resource types served right now: the built-ins plus one per established CRD. */
export class Registry {
  private readonly builtins: ResourceType[];
  private readonly custom = new Map<string, ResourceType>();

  constructor() {
    this.builtins = [...builtinTypes(), crdResourceType()];
  }

  all(): ResourceType[] {
    return [...this.builtins, ...this.custom.values()];
  }

  /** The type served at /apis/<group>/<version>/<resource> (or /api/v1/<resource>). */
  find(group: string, version: string, resource: string): ResourceType | undefined {
    return this.all().find(
      (t) => t.group === group && t.resource === resource && t.versions.includes(version),
    );
  }

  byStorageKey(key: string): ResourceType | undefined {
    return this.all().find((t) => t.storageKey === key);
  }

  /** Serves (or re-serves) the resources a CRD defines. */
  serveCrd(crd: Obj): ResourceType {
    const type = customResourceType(crd);
    this.custom.set(type.crdName!, type);
    return type;
  }

  unserveCrd(crdName: string): ResourceType | undefined {
    const type = this.custom.get(crdName);
    this.custom.delete(crdName);
    return type;
  }

  customTypes(): ResourceType[] {
    return [...this.custom.values()];
  }

  /** Group -> served versions, preferred first, with the core group as "". */
  groups(): Map<string, string[]> {
    const groups = new Map<string, string[]>();
    for (const type of this.all()) {
      const versions = groups.get(type.group) ?? [];
      for (const v of type.versions) if (!versions.includes(v)) versions.push(v);
      groups.set(type.group, versions);
    }
    return groups;
  }
}
