import { userHref } from "./resources/accounts.ts";
import { cloudHref } from "./resources/clouds.ts";
import { hrefs } from "./resources/linked-records.ts";
import type { Store } from "./store.ts";

/** Objects of one kind a manifest names by href, as the simulator holds them. */
export interface HrefGroup {
  /** What they are, plural: `clouds`, `volume types`. */
  title: string;
  entries: { href: string; label: string }[];
}

interface Named {
  id: string;
  name?: string;
  cloud_id?: string;
  email?: string;
}

/**
 * What a user's manifests name by href and no custom resource makes: clouds, datacenters,
 * servers, volume types and users, in the store's order (the seed's), each labelled with its
 * name (a user with their email). `svc-operator dev` prints them, so writing a manifest needs no
 * API call first.
 */
export function seededHrefs(store: Store): HrefGroup[] {
  const all = (collection: string) => [...store.collection<Named>(collection).values()];
  const group = (
    title: string,
    collection: string,
    href: (o: Named) => string,
    label = (o: Named) => o.name,
  ) => ({
    title,
    entries: all(collection).map((o) => ({ href: href(o), label: label(o) ?? "" })),
  });
  return [
    group("clouds", "clouds", (c) => cloudHref(c.id)),
    group("datacenters", "datacenters", (d) => hrefs.datacenter(d.cloud_id ?? "", d.id)),
    group("servers", "servers", (s) => hrefs.server(s.id)),
    group("volume types", "volume_types", (t) => `${cloudHref(t.cloud_id ?? "")}/volume_types/${t.id}`),
    group(
      "users",
      "users",
      (u) => userHref(u.id),
      (u) => u.email,
    ),
  ];
}
