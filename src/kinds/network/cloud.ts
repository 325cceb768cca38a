import { isApiError, type ServiceApi, selfHref } from "../../api/index.ts";
import { type Cloud, cloudCapabilities } from "../../api/resources/clouds.ts";
import { InvalidSpecError } from "../../runtime/result.ts";

/** The cloud calls the network kinds make (the service client's `clouds`). */
export type CloudCalls = Pick<ServiceApi["clouds"], "index" | "show">;

/** Where a spec names its cloud: by href or by name (`cloud: {name}`). */
export interface CloudChoice {
  cloudHref?: string;
  cloud?: { name: string };
}

interface Entry<T> {
  value: T;
  at: number;
}

/**
 * Cloud names and capabilities, looked up through the clouds index and cached per client:
 * clouds rarely change, and without a cache every reconcile of a network would cost two
 * extra calls. Names resolve exactly (the index filter is a substring match).
 */
export class CloudDirectory {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly byClient = new WeakMap<
    object,
    { names: Map<string, Entry<string>>; caps: Map<string, Entry<Record<string, boolean>>> }
  >();

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  private cache(client: object) {
    let c = this.byClient.get(client);
    if (!c) {
      c = { names: new Map(), caps: new Map() };
      this.byClient.set(client, c);
    }
    return c;
  }

  private fresh<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const e = map.get(key);
    return e && this.now() - e.at < this.ttlMs ? e.value : undefined;
  }

  /** The cloud href the spec names; an unknown or ambiguous name is an InvalidSpec naming `cloud.name`. */
  async resolve(clouds: CloudCalls, choice: CloudChoice): Promise<string> {
    if (choice.cloudHref) return choice.cloudHref;
    const name = choice.cloud?.name;
    if (!name) throw new InvalidSpecError("cloudHref", "one of cloudHref or cloud.name must be set");
    const cache = this.cache(clouds);
    const hit = this.fresh(cache.names, name);
    if (hit) return hit;
    const found = (await clouds.index({ filter: { name } })).filter((c: Cloud) => c.name === name);
    if (found.length === 0)
      throw new InvalidSpecError("cloud.name", `no cloud named "${name}" in the account`);
    if (found.length > 1) {
      throw new InvalidSpecError(
        "cloud.name",
        `${found.length} clouds are named "${name}" (${found.map(selfHref).join(", ")}); use cloudHref`,
      );
    }
    const href = selfHref(found[0]!);
    cache.names.set(name, { value: href, at: this.now() });
    return href;
  }

  /** Capabilities of a cloud (view `extended`); an unknown cloud is an InvalidSpec naming `field`. */
  async capabilities(clouds: CloudCalls, href: string, field: string): Promise<Record<string, boolean>> {
    const cache = this.cache(clouds);
    const hit = this.fresh(cache.caps, href);
    if (hit) return hit;
    let cloud: Cloud;
    try {
      cloud = await clouds.show(href, { view: "extended" });
    } catch (error) {
      if (isApiError(error) && error.kind === "notFound") {
        throw new InvalidSpecError(field, `cloud ${href} does not exist in the account`);
      }
      throw error;
    }
    const caps = cloudCapabilities(cloud);
    cache.caps.set(href, { value: caps, at: this.now() });
    return caps;
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
