import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/index.ts";
import type { Cloud } from "../../api/resources/clouds.ts";
import { DependencyNotReadyError, InvalidSpecError, NameLookup } from "../../runtime/sdk/index.ts";
import { type CloudCalls, CloudDirectory, resolveCloud } from "./cloud.ts";

function fakeClouds(clouds: (Cloud & { id: string })[]) {
  const calls: string[] = [];
  const api: CloudCalls = {
    index: async (options) => {
      calls.push(`index ${JSON.stringify(options?.filter)}`);
      const name = (options?.filter as Record<string, string> | undefined)?.name ?? "";
      return clouds.filter((c) => c.name.toLowerCase().includes(name.toLowerCase()));
    },
    show: async (href) => {
      calls.push(`show ${href}`);
      const c = clouds.find((x) => `/api/clouds/${x.id}` === href);
      if (!c)
        throw new ApiError({
          kind: "notFound",
          code: "SVC_NOT_FOUND",
          message: "not found",
          status: 422,
        } as never);
      return c;
    },
  } as CloudCalls;
  return { api, calls };
}

const cloud = (id: string, name: string, networks: string): Cloud & { id: string } => ({
  id,
  name,
  links: [{ rel: "self", href: `/api/clouds/${id}` }],
  capabilities: [{ name: "supports_networks", value: networks }],
});

describe("CloudDirectory", () => {
  it("resolves a name exactly through the runtime's name lookups, once per account", async () => {
    const { api, calls } = fakeClouds([
      cloud("1", "EC2 us-east-1", "true"),
      cloud("4", "EC2 us-east-1b", "true"),
    ]);
    const ctx = { names: new NameLookup(), account: "team-a/default" };
    expect(await resolveCloud(api, { cloud: { name: "EC2 us-east-1" } }, ctx)).toBe("/api/clouds/1");
    expect(await resolveCloud(api, { cloud: { name: "EC2 us-east-1b" } }, ctx)).toBe("/api/clouds/4");
    expect(calls.filter((c) => c.startsWith("index"))).toHaveLength(1);
    expect(await resolveCloud(api, { cloudHref: "/api/clouds/9" }, ctx)).toBe("/api/clouds/9");
  });

  it("names cloud.name when several clouds match; an unknown name waits (it may appear)", async () => {
    const { api } = fakeClouds([cloud("1", "lab", "true"), cloud("2", "lab", "true")]);
    const ctx = { names: new NameLookup(), account: "team-a/default" };
    await expect(resolveCloud(api, { cloud: { name: "lab" } }, ctx)).rejects.toThrow(
      /spec\.cloud\.name: "lab" names 2 objects/,
    );
    await expect(resolveCloud(api, { cloud: { name: "nope" } }, ctx)).rejects.toBeInstanceOf(
      DependencyNotReadyError,
    );
  });

  it("stops with InvalidSpec when supports_networks is false, before any create", async () => {
    const { api, calls } = fakeClouds([cloud("2", "OpenStack Lab", "false"), cloud("1", "EC2", "true")]);
    const dir = new CloudDirectory();
    const err = await dir
      .require(api, "/api/clouds/2", "supports_networks", "networks", "cloudHref")
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidSpecError);
    expect(err.message).toMatch(
      /spec\.cloudHref: cloud \/api\/clouds\/2 does not support networks \(capability supports_networks is "false"\)/,
    );
    await dir.require(api, "/api/clouds/1", "supports_networks", "networks", "cloudHref");
    await dir.require(api, "/api/clouds/1", "supports_networks", "networks", "cloudHref");
    expect(calls.filter((c) => c === "show /api/clouds/1")).toHaveLength(1);
  });

  it("shares one call among concurrent readers and does not cache a failure", async () => {
    const { api, calls } = fakeClouds([cloud("1", "EC2", "true")]);
    const dir = new CloudDirectory();
    await Promise.all([1, 2, 3].map(() => dir.capabilities(api, "/api/clouds/1", "cloudHref")));
    expect(calls).toEqual(["show /api/clouds/1"]);
    await expect(dir.capabilities(api, "/api/clouds/7", "cloudHref")).rejects.toThrow(/does not exist/);
    await expect(dir.capabilities(api, "/api/clouds/7", "cloudHref")).rejects.toThrow(/does not exist/);
    expect(calls.filter((c) => c === "show /api/clouds/7")).toHaveLength(2);
  });

  it("re-reads after the TTL", async () => {
    let now = 0;
    const { api, calls } = fakeClouds([cloud("1", "EC2", "true")]);
    const dir = new CloudDirectory({ ttlMs: 1000, now: () => now });
    await dir.capabilities(api, "/api/clouds/1", "cloudHref");
    now = 2000;
    await dir.capabilities(api, "/api/clouds/1", "cloudHref");
    expect(calls).toEqual(["show /api/clouds/1", "show /api/clouds/1"]);
  });
});
