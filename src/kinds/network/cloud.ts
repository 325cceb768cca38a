import { isApiError, type ServiceApi, selfHref } from "../../api/index.ts";
import { cloudCapabilities } from "../../api/resources/clouds.ts";
import type { NameLookup } from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError, InvalidSpecError } from "../../runtime/sdk/index.ts";
import { type CloudChoice, resolveCloudHref } from "../shared/cloud.ts";

export type { CloudChoice };

/** The cloud calls the network kinds make (the service client's `clouds`). */
export type CloudCalls = Pick<ServiceApi["clouds"], "index" | "show">;

/**
 * The cloud href a spec names: `cloudHref` as given, or `cloud.name` through the runtime's cached
 * name lookups over the clouds index (the same cache key as the other kinds that name clouds).
 */
export function resolveCloud(
  clouds: CloudCalls,
  choice: CloudChoice,
  ctx: { names?: NameLookup; account?: string },
): Promise<string> {
  return resolveCloudHref(ctx, choice, async () =>
    (await clouds.index()).map((c) => ({ name: c.name, href: selfHref(c) })),
  );
}

interface Entry {
  value: Promise<Record<string, boolean>>;
  at: number;
}

/**
 * Cloud capabilities (view `extended`), cached per client: clouds rarely change, and without
 * a cache every reconcile of a network would cost an extra call.
 */
export class CloudDirectory {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly byClient = new WeakMap<object, Map<string, Entry>>();

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Capabilities of a cloud. An unknown cloud waits (DependencyNotReady naming `field`, as a missing
   * linked object does before any create: it may be registered later). Concurrent callers share one call.
   */
  capabilities(clouds: CloudCalls, href: string, field: string): Promise<Record<string, boolean>> {
    let cache = this.byClient.get(clouds);
    if (!cache) {
      cache = new Map();
      this.byClient.set(clouds, cache);
    }
    const hit = cache.get(href);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const value = this.show(clouds, href, field);
    cache.set(href, { value, at: this.now() });
    // A failed read must not be cached.
    value.catch(() => cache.delete(href));
    return value;
  }

  private async show(clouds: CloudCalls, href: string, field: string): Promise<Record<string, boolean>> {
    try {
      return cloudCapabilities(await clouds.show(href, { view: "extended" }));
    } catch (error) {
      if (isApiError(error) && error.kind === "notFound") {
        throw new DependencyNotReadyError(`spec.${field}: ${href} does not exist in the service`);
      }
      throw error;
    }
  }

  /** Stops (InvalidSpec) when the cloud says it lacks `capability`; an unreported capability is not held against it. */
  async require(
    clouds: CloudCalls,
    href: string,
    capability: string,
    what: string,
    field: string,
  ): Promise<void> {
    const caps = await this.capabilities(clouds, href, field);
    if (caps[capability] === false) {
      throw new InvalidSpecError(
        field,
        `cloud ${href} does not support ${what} (capability ${capability} is "false")`,
      );
    }
  }
}

/** The one directory the kinds share by default: one capabilities read per cloud and Account, not one per kind. */
export const sharedClouds = new CloudDirectory();
