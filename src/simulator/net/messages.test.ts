import { describe, expect, it } from "vitest";
import { LISTED_IDS, listIds } from "./messages.ts";

describe("listIds", () => {
  it("lists a few ids and counts the rest", () => {
    expect(listIds([{ id: "1" }, { id: "2" }])).toBe("1, 2");
    const many = Array.from({ length: LISTED_IDS + 5 }, (_, i) => ({ id: String(i + 1) }));
    expect(listIds(many)).toBe("1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 5 more");
    expect(listIds([])).toBe("");
  });
});
