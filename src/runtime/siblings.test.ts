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
});
