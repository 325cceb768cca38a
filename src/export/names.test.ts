import { describe, expect, it } from "vitest";
import type { Item } from "../inventory/index.ts";
import { dnsLabel, manifestNames } from "./names.ts";

const item = (href: string, name?: string): Item =>
  ({ href, at: name === undefined ? {} : { name } }) as unknown as Item;

describe("dnsLabel", () => {
  it.each([
    ["Production", "production"],
    ["EC2 us-east-1 / Zone_A", "ec2-us-east-1-zone-a"],
    ["--Déjà vu--", "deja-vu"],
    ["日本", ""],
    ["a".repeat(80), "a".repeat(63)],
    [`${"a".repeat(62)}-b`, "a".repeat(62)],
  ])("%j -> %j", (text, label) => {
    expect(dnsLabel(text)).toBe(label);
    expect(label).toMatch(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$/);
  });
});

describe("manifestNames", () => {
  it("names objects after their service names, and objects without one after their id", () => {
    const names = manifestNames("route", [item("/api/routes/3"), item("/api/networks/1", "Main Net")]);
    expect(Object.fromEntries(names)).toEqual({ "/api/routes/3": "route-3", "/api/networks/1": "main-net" });
  });

  it("resolves collisions in href order, the same way every time", () => {
    const items = [
      item("/api/deployments/2", "web"),
      item("/api/deployments/10", "Web"),
      item("/api/deployments/7", "web-10"),
    ];
    const first = manifestNames("deployment", items);
    expect(Object.fromEntries(first)).toEqual({
      "/api/deployments/2": "web",
      "/api/deployments/7": "web-10",
      "/api/deployments/10": "web-10-2",
    });
    expect(manifestNames("deployment", items)).toEqual(first);
  });

  it("counts on when the id suffix is taken too, within 63 characters", () => {
    const long = "x".repeat(70);
    const names = manifestNames("deployment", [
      item("/api/deployments/1", long),
      item("/api/deployments/2", `${long}-2`),
      item("/api/deployments/3", long),
    ]);
    expect(new Set(names.values()).size).toBe(3);
    for (const name of names.values()) expect(name.length).toBeLessThanOrEqual(63);
  });
});
