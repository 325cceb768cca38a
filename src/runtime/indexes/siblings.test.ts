import { describe, expect, it } from "vitest";
import { SiblingIndex } from "./siblings.ts";

describe("SiblingIndex", () => {
  it("lists the other members of a group, follows moves and removals", () => {
    const s = new SiblingIndex();
    s.set("P/ns/observer", "ns\u0000/api/users/2");
    s.set("P/ns/actor", "ns\u0000/api/users/2");
    s.set("P/ns/other-user", "ns\u0000/api/users/3");
    s.set("P/ns/none", undefined);
    expect(s.siblings("P/ns/observer")).toEqual(["P/ns/actor"]);
    expect(s.siblings("P/ns/none")).toEqual([]);
    s.set("P/ns/actor", "ns\u0000/api/users/3");
    expect(s.siblings("P/ns/observer")).toEqual([]);
    expect(s.siblings("P/ns/actor")).toEqual(["P/ns/other-user"]);
    s.remove("P/ns/other-user");
    expect(s.siblings("P/ns/actor")).toEqual([]);
  });

  it("wakes the others on the Ready of a member they wait for only (leads), not of a follower", () => {
    const s = new SiblingIndex();
    s.set("P/ns/observer", "u2");
    s.set("P/ns/actor", "u2", false);
    s.set("P/ns/designer", "u2", false);
    expect(s.woken("P/ns/observer")).toEqual(["P/ns/actor", "P/ns/designer"]);
    expect(s.woken("P/ns/actor")).toEqual([]);
    // Its deletion still concerns every sibling (observer waits for the others to go).
    expect(s.siblings("P/ns/actor")).toEqual(["P/ns/designer", "P/ns/observer"]);
    // Set again (a spec change), or moved to another group: the latest `leads` holds.
    s.set("P/ns/actor", "u2", true);
    expect(s.woken("P/ns/actor")).toEqual(["P/ns/designer", "P/ns/observer"]);
    s.set("P/ns/designer", "u3", false);
    expect(s.woken("P/ns/designer")).toEqual([]);
    s.remove("P/ns/designer");
    s.set("P/ns/designer", "u2");
    expect(s.woken("P/ns/designer")).toEqual(["P/ns/actor", "P/ns/observer"]);
  });
});
