import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { GRAPH_SIZES, type GraphSize, readTextChunks, renderGraph } from "./graph-png.ts";

const variables = [
  { variable: "rx", points: [1, 5, 3, 8, 2] },
  { variable: "tx", points: [2, 2, 4, 1, 6] },
];

describe("renderGraph", () => {
  it.each(Object.keys(GRAPH_SIZES) as GraphSize[])("makes a decodable PNG of the %s size", (size) => {
    const buffer = renderGraph({ size, variables, text: {} });
    const image = PNG.sync.read(buffer);
    expect({ width: image.width, height: image.height }).toEqual(GRAPH_SIZES[size]);
  });

  it("draws the lines in the palette colours", () => {
    const image = PNG.sync.read(renderGraph({ size: "small", variables, text: {} }));
    const colours = new Set<string>();
    for (let i = 0; i < image.data.length; i += 4) {
      colours.add(`${image.data[i]},${image.data[i + 1]},${image.data[i + 2]}`);
    }
    expect(colours).toContain("31,119,180");
    expect(colours).toContain("214,39,40");
  });

  it("keeps title, period and time zone as text chunks with valid CRCs (pngjs checks them)", () => {
    const text = { Title: "CPU — web 1", Period: "day", Timezone: "America/Los_Angeles" };
    const buffer = renderGraph({ size: "tiny", variables, text });
    expect(() => PNG.sync.read(buffer, { checkCRC: true })).not.toThrow();
    expect(readTextChunks(buffer)).toEqual(text);
  });

  it("renders an empty window and a single point without failing", () => {
    expect(() => PNG.sync.read(renderGraph({ size: "thumb", variables: [], text: {} }))).not.toThrow();
    const one = [{ variable: "value", points: [4] }];
    expect(() => PNG.sync.read(renderGraph({ size: "thumb", variables: one, text: {} }))).not.toThrow();
  });
});
