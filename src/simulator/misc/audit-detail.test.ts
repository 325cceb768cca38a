import { describe, expect, it } from "vitest";
import { appendChunk, type DetailChunk, detailSize, joinDetail } from "./audit-detail.ts";

function build(steps: { text: string; offset?: number }[]): DetailChunk[] {
  return steps.reduce<DetailChunk[]>((chunks, step) => appendChunk(chunks, step.text, step.offset), []);
}

describe("audit detail chunks", () => {
  const cases: { reason: string; steps: { text: string; offset?: number }[]; want: string }[] = [
    { reason: "no chunks is empty text", steps: [], want: "" },
    {
      reason: "default offset appends at the end",
      steps: [{ text: "a\n" }, { text: "b\n" }],
      want: "a\nb\n",
    },
    {
      reason: "ordered by offset, not arrival",
      steps: [
        { text: "third", offset: 20 },
        { text: "first", offset: 0 },
        { text: "second", offset: 10 },
      ],
      want: "firstsecondthird",
    },
    {
      reason: "equal offsets keep arrival order",
      steps: [
        { text: "x", offset: 5 },
        { text: "y", offset: 5 },
      ],
      want: "xy",
    },
    {
      reason: "default offset goes after a chunk placed far ahead",
      steps: [{ text: "late", offset: 100 }, { text: "é" }, { text: "!", offset: 0 }, { text: "end" }],
      want: "!lateéend",
    },
    {
      reason: "offsets count UTF-8 bytes",
      steps: [{ text: "é" }, { text: "x", offset: 2 }, { text: "y", offset: 1 }],
      want: "éyx",
    },
    { reason: "blank detail adds no chunk", steps: [{ text: "a" }, { text: "" }, { text: "b" }], want: "ab" },
  ];
  it.each(cases)("$reason", ({ steps, want }) => {
    const chunks = build(steps);
    expect(joinDetail(chunks)).toBe(want);
    expect(detailSize(chunks)).toBe(Buffer.byteLength(want));
  });

  it("does not modify the list it is given", () => {
    const first = build([{ text: "a" }]);
    appendChunk(first, "b");
    expect(first).toHaveLength(1);
  });
});
