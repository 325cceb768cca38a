import { describe, expect, it } from "vitest";
import { ReferenceIndex } from "./references.ts";

describe("ReferenceIndex", () => {
  it("answers dependents of a target and replaces a dependent's references", () => {
    const idx = new ReferenceIndex();
    idx.set("Subnet/ns/a", ["Network/ns/main", "Account/ns/default"]);
    idx.set("Subnet/ns/b", ["Network/ns/main"]);
    expect(idx.dependents("Network/ns/main")).toEqual(["Subnet/ns/a", "Subnet/ns/b"]);
    idx.set("Subnet/ns/a", ["Network/ns/other"]);
    expect(idx.dependents("Network/ns/main")).toEqual(["Subnet/ns/b"]);
    expect(idx.dependents("Account/ns/default")).toEqual([]);
    expect(idx.targets("Subnet/ns/a")).toEqual(["Network/ns/other"]);
    idx.remove("Subnet/ns/b");
    expect(idx.dependents("Network/ns/main")).toEqual([]);
  });

  it("keeps unchanged references as they are and drops duplicates", () => {
    const idx = new ReferenceIndex();
    idx.set("Route/ns/r", ["Network/ns/n", "NetworkGateway/ns/g", "Network/ns/n"]);
    expect(idx.targets("Route/ns/r")).toEqual(["Network/ns/n", "NetworkGateway/ns/g"]);
    idx.set("Route/ns/r", ["Network/ns/n", "NetworkGateway/ns/g"]);
    expect(idx.dependents("NetworkGateway/ns/g")).toEqual(["Route/ns/r"]);
    idx.set("Route/ns/r", []);
    expect(idx.targets("Route/ns/r")).toEqual([]);
    expect(idx.dependents("Network/ns/n")).toEqual([]);
  });
});
