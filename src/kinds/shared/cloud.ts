import { type ServiceApi, selfHref } from "../../api/index.ts";
import { NameLookup } from "../../runtime/sdk/index.ts";

/** Where a spec names its cloud: by href or by name (`cloud: {name}`). */
export interface CloudChoice {
  cloudHref?: string;
  cloud?: { name: string };
}

/**
 * The cloud href a spec names: `cloudHref` as given, or `cloud.name` through the runtime's cached
 * name lookups over the clouds index, keyed per account so every kind that names clouds shares
 * one cache entry.
 */
export function resolveCloudHref(
  ctx: { names?: NameLookup; account?: string },
  choice: CloudChoice,
  list: () => Promise<{ name: string; href: string }[]>,
): Promise<string> {
  if (choice.cloudHref) return Promise.resolve(choice.cloudHref);
  const names = ctx.names ?? new NameLookup();
  return names.href(`${ctx.account ?? ""}/api/clouds`, choice.cloud!.name, "cloud.name", list);
}

/**
 * A table row's `byName` for a cloud named in the spec (`cloud: {name}`): the clouds index, under
 * the same cache key as `resolveCloudHref`, so every kind naming clouds shares one entry per account.
 */
export const cloudLookup = {
  field: "cloud",
  collection: "/api/clouds",
  list: async (client: Pick<ServiceApi, "clouds">) =>
    (await client.clouds.index()).map((c) => ({ name: c.name, href: selfHref(c) })),
};
