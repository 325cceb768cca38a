import { crc32 } from "node:zlib";
import { PNG } from "pngjs";
import type { VariableData } from "./metric-data.ts";

/**
 * The PNG behind a monitoring metric's `graph_href`: a line chart of the metric's points
 * (one colour per variable) on a light grid, at the pixel size the `size` parameter names.
 * The title, period and time zone are not drawn (no font rendering); they are written as
 * iTXt text chunks (`Title`, `Period`, `Timezone`) so a viewer or a test can read them.
 */

export const GRAPH_SIZES = {
  thumb: { width: 120, height: 45 },
  tiny: { width: 200, height: 75 },
  small: { width: 400, height: 150 },
  large: { width: 640, height: 240 },
  xlarge: { width: 960, height: 360 },
} as const;

export type GraphSize = keyof typeof GRAPH_SIZES;

export interface GraphRequest {
  size: GraphSize;
  variables: readonly VariableData[];
  text: Record<string, string>;
}

type Rgb = readonly [number, number, number];
const BACKGROUND: Rgb = [255, 255, 255];
const GRID: Rgb = [225, 225, 225];
const AXIS: Rgb = [120, 120, 120];
const PALETTE: readonly Rgb[] = [
  [31, 119, 180],
  [214, 39, 40],
  [44, 160, 44],
  [255, 127, 14],
];

export function renderGraph(request: GraphRequest): Buffer {
  const { width, height } = GRAPH_SIZES[request.size];
  const png = new PNG({ width, height });
  const set = (x: number, y: number, [r, g, b]: Rgb) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 4;
    png.data[i] = r;
    png.data[i + 1] = g;
    png.data[i + 2] = b;
    png.data[i + 3] = 255;
  };
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) set(x, y, BACKGROUND);

  const margin = Math.max(2, Math.round(height / 15));
  const left = margin;
  const right = width - 1 - margin;
  const top = margin;
  const bottom = height - 1 - margin;
  for (let k = 1; k < 4; k++) {
    const y = Math.round(top + ((bottom - top) * k) / 4);
    for (let x = left; x <= right; x++) set(x, y, GRID);
  }
  for (let x = left; x <= right; x++) set(x, bottom, AXIS);
  for (let y = top; y <= bottom; y++) set(left, y, AXIS);

  const all = request.variables.flatMap((v) => v.points);
  const min = all.length > 0 ? Math.min(0, ...all) : 0;
  const max = all.length > 0 ? Math.max(...all) : 1;
  const range = max - min || 1;
  request.variables.forEach((variable, index) => {
    const colour = PALETTE[index % PALETTE.length];
    const n = variable.points.length;
    const toXY = (i: number): [number, number] => [
      Math.round(left + (n === 1 ? 0 : ((right - left) * i) / (n - 1))),
      Math.round(bottom - ((bottom - top) * (variable.points[i] - min)) / range),
    ];
    for (let i = 1; i < n; i++) line(toXY(i - 1), toXY(i), (x, y) => set(x, y, colour));
    if (n === 1) set(...toXY(0), colour);
  });

  return withTextChunks(PNG.sync.write(png), request.text);
}

/** Bresenham's line between two pixels. */
function line([x0, y0]: [number, number], [x1, y1]: [number, number], plot: (x: number, y: number) => void) {
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  for (;;) {
    plot(x0, y0);
    if (x0 === x1 && y0 === y1) return;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

const SIGNATURE_AND_IHDR = 8 + 4 + 4 + 13 + 4;

/** Inserts uncompressed UTF-8 iTXt chunks right after IHDR (pngjs does not write text chunks). */
export function withTextChunks(png: Buffer, text: Record<string, string>): Buffer {
  const chunks = Object.entries(text).map(([keyword, value]) => {
    const data = Buffer.concat([
      Buffer.from(keyword, "latin1"),
      Buffer.from([0, 0, 0, 0, 0]), // null, compression flag, method, empty language tag, empty translated keyword
      Buffer.from(value, "utf8"),
    ]);
    const typeAndData = Buffer.concat([Buffer.from("iTXt", "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([length, typeAndData, crc]);
  });
  return Buffer.concat([png.subarray(0, SIGNATURE_AND_IHDR), ...chunks, png.subarray(SIGNATURE_AND_IHDR)]);
}

/** Reads the iTXt chunks of a PNG (for tests and tools). */
export function readTextChunks(png: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let offset = 8;
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    if (type === "iTXt") {
      const data = png.subarray(offset + 8, offset + 8 + length);
      const nul = data.indexOf(0);
      const keyword = data.toString("latin1", 0, nul);
      // keyword \0 flag method language \0 translated \0 text
      const languageEnd = data.indexOf(0, nul + 3);
      const translatedEnd = data.indexOf(0, languageEnd + 1);
      out[keyword] = data.toString("utf8", translatedEnd + 1);
    }
    offset += 12 + length;
  }
  return out;
}
