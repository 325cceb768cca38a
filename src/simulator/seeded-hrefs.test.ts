import { describe, expect, it } from "vitest";
import { resources } from "./resources/index.ts";
import { defaultSeed, loadSeed, validateSeed } from "./seed.ts";
import { seededHrefs } from "./seeded-hrefs.ts";
import { Store } from "./store.ts";

describe("seededHrefs: what a manifest names by href and no custom resource makes", () => {
  it("the default seed's clouds, datacenters, servers, volume types and users, named", () => {
    const store = new Store();
    loadSeed(store, validateSeed(defaultSeed(resources), resources), resources);
    const text = seededHrefs(store).map(
      (g) => `${g.title}: ${g.entries.map((e) => `${e.href} ${e.label}`).join(", ")}`,
    );
    expect(text).toEqual([
      "clouds: /api/clouds/1 EC2 us-east-1, /api/clouds/2 OpenStack Lab",
      "datacenters: /api/clouds/1/datacenters/1 us-east-1a, /api/clouds/1/datacenters/2 us-east-1b, /api/clouds/2/datacenters/3 nova",
      "servers: /api/servers/1 app-1, /api/servers/2 app-2 (stopped)",
      "volume types: /api/clouds/1/volume_types/1 standard, /api/clouds/1/volume_types/2 io1, /api/clouds/2/volume_types/3 ssd",
      "users: /api/users/1 admin@example.com, /api/users/2 user2@example.com",
    ]);
  });

  it("an empty store: every kind, none in it", () => {
    expect(seededHrefs(new Store()).map((g) => [g.title, g.entries.length])).toEqual([
      ["clouds", 0],
      ["datacenters", 0],
      ["servers", 0],
      ["volume types", 0],
      ["users", 0],
    ]);
  });
});
