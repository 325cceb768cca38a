import { describe, expect, it } from "vitest";
import { callsGoAhead } from "../../api/index.ts";
import { NameLookup } from "./lookup.ts";
import { DependencyNotReadyError, InvalidSpecError } from "./result.ts";

describe("NameLookup", () => {
  it("caches one index call per collection and TTL", async () => {
    let now = 0;
    let calls = 0;
    const ahead: boolean[] = [];
    const lookup = new NameLookup({ now: () => now, ttlMs: 1000 });
    const list = async () => {
      calls++;
      ahead.push(callsGoAhead());
      return [
        { name: "EC2 us-east-1", href: "/api/clouds/1" },
        { name: "Private", href: "/api/clouds/2" },
      ];
    };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => lookup.href("ns/acct/clouds", "Private", "cloud.name", list)),
    );
    expect(new Set(results)).toEqual(new Set(["/api/clouds/2"]));
    expect(calls).toBe(1);
    // Every resource naming an item waits on that call: it goes ahead of others (connection-gate.ts).
    expect(ahead).toEqual([true]);
    now = 2000;
    await lookup.href("ns/acct/clouds", "Private", "cloud.name", list);
    expect(calls).toBe(2);
  });

  it("a missing name waits naming the field; an ambiguous one is an invalid spec", async () => {
    const lookup = new NameLookup({ now: () => 0 });
    const list = async () => [
      { name: "standard", href: "/api/clouds/1/volume_types/1" },
      { name: "standard", href: "/api/clouds/1/volume_types/2" },
    ];
    await expect(lookup.href("a/volume_types", "gp3", "volumeType.name", list)).rejects.toThrow(
      DependencyNotReadyError,
    );
    await expect(lookup.href("a/volume_types", "gp3", "volumeType.name", list)).rejects.toThrow(
      'spec.volumeType.name: no volume_types named "gp3"',
    );
    await expect(lookup.href("a/volume_types", "standard", "volumeType.name", list)).rejects.toThrow(
      InvalidSpecError,
    );
  });

  it("does not cache a failed list", async () => {
    const lookup = new NameLookup({ now: () => 0 });
    let fail = true;
    const list = async () => {
      if (fail) throw new Error("503");
      return [{ name: "x", href: "/api/x/1" }];
    };
    await expect(lookup.href("k", "x", "f", list)).rejects.toThrow("503");
    fail = false;
    expect(await lookup.href("k", "x", "f", list)).toBe("/api/x/1");
  });
});
