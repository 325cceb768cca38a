import { isApiError, type ServiceApi, selfHref } from "../api/index.ts";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";
import { withoutNulls } from "../runtime/sdk/index.ts";

/** One service object of a managed kind, as its collection index shows it. */
export interface Item {
  kind: AnyManagedKind;
  href: string;
  /** The index scope it was listed in ("" account-wide, else e.g. the cloud's href). */
  scope: string;
  observed: unknown;
  /** `status.atProvider` as the operator would write it (no nulls). */
  at: Record<string, unknown>;
}

/** What listing one kind gave: its objects, or why the kind was skipped. */
export type Listing =
  | { kind: AnyManagedKind; items: Item[] }
  | { kind: AnyManagedKind; skipped: string; forbidden: boolean };

/** How a kind's collection is scoped, read from its `index.scope` (or said by its export hook). */
type Scoping = "account" | "cloud" | "hook";

const PROBE_CLOUD = "/api/clouds/0";

/**
 * Whether a kind's index is account-wide (scope "") or per cloud (the scope is the cloud href the
 * spec or status names), asked of the kind itself with a probe; undefined when it is neither, and
 * the kind says nothing of its scopes: its objects cannot be found without knowing more.
 */
export function scopingOf(kind: AnyManagedKind): Scoping | undefined {
  if (kind.export?.scopes) return "hook";
  if (!kind.index) return undefined;
  try {
    const scope = kind.index.scope(
      { cloudHref: PROBE_CLOUD, accountRef: { name: "default" } },
      { atProvider: { cloudHref: PROBE_CLOUD } },
    );
    if (scope === "") return "account";
    if (scope === PROBE_CLOUD) return "cloud";
  } catch {
    // A scope that reads more than a cloud: not one this generic reading knows.
  }
  return undefined;
}

/** Why a kind cannot be listed generically, or undefined when it can. */
export function unsupported(kind: AnyManagedKind): string | undefined {
  if (kind.export?.unsupported) return kind.export.unsupported;
  if (!kind.index) return `${kind.kind} has no collection index to list its objects from`;
  if (!scopingOf(kind))
    return `${kind.kind}'s collection is scoped by something other than the account or a cloud, and the kind declares no export scopes`;
  return undefined;
}

/** Hrefs in a stable order: numeric ids as numbers (`/api/x/2` before `/api/x/10`). */
export function compareHrefs(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/**
 * Every object of the account's managed kinds, read through the collection indexes drift detection
 * uses: one call per kind and scope (plus one clouds index for the per-cloud kinds), never one per
 * object, so a thousand objects cost what ten do.
 */
export class Inventory {
  private readonly client: ServiceApi;
  private cloudList: Promise<string[]> | undefined;
  private readonly listings = new Map<AnyManagedKind, Promise<Listing>>();

  constructor(client: ServiceApi) {
    this.client = client;
  }

  /** The account's clouds (one index call per run). */
  clouds(): Promise<string[]> {
    this.cloudList ??= this.client.clouds.index().then((cs) => cs.map((c) => selfHref(c)).sort(compareHrefs));
    return this.cloudList;
  }

  /** A kind's objects (listed once per run). A 403 (a role the credentials lack) skips the kind; other failures throw. */
  list(kind: AnyManagedKind): Promise<Listing> {
    let listing = this.listings.get(kind);
    if (!listing) {
      listing = this.listKind(kind);
      this.listings.set(kind, listing);
    }
    return listing;
  }

  private async listKind(kind: AnyManagedKind): Promise<Listing> {
    const why = unsupported(kind);
    if (why) return { kind, skipped: why, forbidden: false };
    try {
      const scoping = scopingOf(kind)!;
      const scopes =
        scoping === "account"
          ? [""]
          : scoping === "cloud"
            ? await this.clouds()
            : await kind.export!.scopes!(this.client);
      const items: Item[] = [];
      for (const scope of scopes) {
        for (const observed of await this.listScope(kind, scope)) {
          const href = kind.hrefOf(observed);
          items.push({ kind, href, scope, observed, at: withoutNulls(kind.atProvider(observed)) });
        }
      }
      // One object may show in several scopes (a collection nested under more than one parent).
      const unique = [...new Map(items.map((i) => [i.href, i])).values()];
      return { kind, items: unique.sort((a, b) => compareHrefs(a.href, b.href)) };
    } catch (error) {
      if (isApiError(error) && error.kind === "unauthorized" && error.status === 403)
        return {
          kind,
          skipped: `the service refused to list ${kind.plural}: ${error.message}`,
          forbidden: true,
        };
      throw error;
    }
  }

  private async listScope(kind: AnyManagedKind, scope: string): Promise<unknown[]> {
    try {
      return await kind.index!.list(this.client, scope);
    } catch (error) {
      // A cloud that does not have the collection at all holds none of its objects.
      if (scope !== "" && isApiError(error) && error.kind === "notFound") return [];
      throw error;
    }
  }
}
