import { describe, expect, it } from "vitest";
import type { SimError } from "./errors.ts";
import { Store } from "./store.ts";

describe("Store", () => {
  it("assigns numeric ids after the highest inserted one", () => {
    const store = new Store();
    const things = store.collection<{ id: string; name: string }>("things");
    expect(things.insert({ name: "a" }).id).toBe("1");
    expect(things.insert({ id: "10", name: "b" }).id).toBe("10");
    expect(things.insert({ name: "c" }).id).toBe("11");
    expect(things.insert({ id: "2-observer", name: "d" }).id).toBe("2-observer");
    expect(things.insert({ name: "e" }).id).toBe("12");
    expect(things.size).toBe(5);
  });

  it("require answers 422 ResourceNotFound naming the label and id", () => {
    const things = new Store().collection<{ id: string }>("things");
    try {
      things.require("9", "Thing");
      throw new Error("expected an error");
    } catch (error) {
      expect((error as SimError).status).toBe(422);
      expect((error as SimError).body).toBe("ResourceNotFound: Couldn't find Thing with ID=9");
    }
  });

  it("snapshot deep-copies non-empty collections; clear resets ids", () => {
    const store = new Store();
    const things = store.collection<{ id: string; tags: string[] }>("things");
    store.collection("empty");
    const t = things.insert({ tags: ["a"] });
    const snap = store.snapshot();
    t.tags.push("b");
    expect(snap).toEqual({ things: [{ id: "1", tags: ["a"] }] });
    store.clear();
    expect(store.snapshot()).toEqual({});
    expect(things.insert({ tags: [] }).id).toBe("1");
  });

  it("filter, find and delete", () => {
    const things = new Store().collection<{ id: string; n: number }>("things");
    for (let n = 0; n < 5; n++) things.insert({ n });
    expect(things.filter((t) => t.n % 2 === 0).map((t) => t.id)).toEqual(["1", "3", "5"]);
    expect(things.find((t) => t.n === 3)?.id).toBe("4");
    expect(things.delete("4")).toBe(true);
    expect(things.get("4")).toBeUndefined();
  });
});
