import type { ScopeOf } from "../runtime/indexes/index.ts";
import type { LiveObjects } from "./live.ts";

/** An Account's `spec.accountId` as OwnerIndex compares it, or undefined when it names none. */
function accountIdOf(account: { spec?: unknown } | undefined): string | undefined {
  const id = (account?.spec as { accountId?: unknown } | undefined)?.accountId;
  return id === undefined ? undefined : String(id);
}

/**
 * Which service account the Account `namespace/name` reaches, as the operator scopes hrefs (a
 * resource of another account never owns one of this account's hrefs): with `--endpoint`, the one
 * account given for every namespace of the manifests; else the Account of the manifests (what would
 * be applied), else the cluster's; undefined (every account) when neither holds it.
 */
export function accountScope(input: {
  live: Pick<LiveObjects, "get">;
  /** Account manifests of the input, by `namespace/name`. */
  manifests: ReadonlyMap<string, Record<string, unknown>>;
  /** `--account-id`, and the namespaces of the manifests it stands for. */
  fixed?: { accountId: number; namespaces: ReadonlySet<string> };
}): ScopeOf {
  const { live, manifests, fixed } = input;
  return (namespace, name) => {
    if (fixed?.namespaces.has(namespace)) return String(fixed.accountId);
    const given = manifests.get(`${namespace}/${name}`);
    return accountIdOf(given ?? live.get("Account", namespace, name));
  };
}
