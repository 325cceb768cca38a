import { NameLookup } from "../../runtime/lookup.ts";

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
