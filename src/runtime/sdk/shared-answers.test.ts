import { describe, expect, it } from "vitest";
import { callsGoAhead } from "../../api/index.ts";
import { SharedAnswers } from "./shared-answers.ts";

const later = <T>(value: T) => new Promise<T>((resolve) => setImmediate(() => resolve(value)));

describe("SharedAnswers", () => {
  it("readers of one key meanwhile share one load, whose calls go ahead of others", async () => {
    const answers = new SharedAnswers<boolean>({ ttlMs: 1000 });
    let loads = 0;
    const load = () => {
      loads++;
      return later(callsGoAhead());
    };
    expect(await Promise.all([answers.get("k", load), answers.get("k", load)])).toEqual([true, true]);
    expect(loads).toBe(1);
    expect(callsGoAhead()).toBe(false);
    await answers.get("other", load);
    expect(loads).toBe(2);
  });

  it("keeps an answer for ttlMs from when it was asked for, then loads again", async () => {
    let now = 0;
    const answers = new SharedAnswers<number>({ ttlMs: 10, now: () => now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await answers.get("k", load)).toBe(1);
    now = 7;
    expect(answers.age("k")).toBe(7);
    expect(await answers.get("k", load)).toBe(1);
    now = 11;
    expect(answers.peek("k")).toBeUndefined();
    expect(answers.age("k")).toBeUndefined();
    expect(await answers.get("k", load)).toBe(2);
  });

  it("never keeps a failed load, nor an answer keep refuses", async () => {
    const answers = new SharedAnswers<boolean>({ ttlMs: 1000, keep: (found) => found });
    await expect(answers.get("k", () => Promise.reject(new Error("503")))).rejects.toThrow("503");
    expect(answers.size).toBe(0);
    const missing = answers.get("gone", () => later(false));
    expect(answers.size).toBe(1);
    expect(await missing).toBe(false);
    expect(answers.size).toBe(0);
    expect(await answers.get("there", () => later(true))).toBe(true);
    expect(answers.size).toBe(1);
  });

  it("an answer that settles after its key was given a new one drops only itself", async () => {
    const answers = new SharedAnswers<number>({ ttlMs: 1000 });
    let fail!: (e: Error) => void;
    const first = answers.put("k", new Promise<number>((_, reject) => (fail = reject)));
    answers.put("k", Promise.resolve(2));
    fail(new Error("lost"));
    await expect(first).rejects.toThrow("lost");
    expect(await answers.peek("k")).toBe(2);
  });

  it("keeps maxEntries answers, the least recently used going first", async () => {
    const answers = new SharedAnswers<string>({ ttlMs: 1000, maxEntries: 2 });
    answers.put("a", Promise.resolve("A"));
    answers.put("b", Promise.resolve("B"));
    answers.peek("a");
    answers.put("c", Promise.resolve("C"));
    expect([answers.peek("a") !== undefined, answers.peek("b"), answers.size]).toEqual([true, undefined, 2]);
    answers.delete("a");
    expect(answers.size).toBe(1);
    answers.clear();
    expect(answers.size).toBe(0);
  });
});
