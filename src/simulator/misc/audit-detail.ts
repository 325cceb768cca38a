/**
 * The detail text of an audit entry as chunks (spec 4.14 append rules): each appended
 * detail is one chunk; its offset fixes its position in the whole text, so chunks are
 * ordered by offset, not by arrival (equal offsets keep arrival order). Offsets are
 * positions in the joined text measured in UTF-8 bytes, the unit of `detail_size`.
 */

export interface DetailChunk {
  offset: number;
  text: string;
  /** Arrival order, to break ties between equal offsets. */
  seq: number;
}

/** Chunks sorted by offset, then arrival; the input is not modified. */
export function orderedChunks(chunks: readonly DetailChunk[]): DetailChunk[] {
  return [...chunks].sort((a, b) => a.offset - b.offset || a.seq - b.seq);
}

/** The whole detail text: the chunks joined in offset order. */
export function joinDetail(chunks: readonly DetailChunk[]): string {
  return orderedChunks(chunks)
    .map((chunk) => chunk.text)
    .join("");
}

/** `detail_size`: the length of the joined text in UTF-8 bytes. */
export function detailSize(chunks: readonly DetailChunk[]): number {
  let size = 0;
  for (const chunk of chunks) size += Buffer.byteLength(chunk.text, "utf8");
  return size;
}

/**
 * The end of the text: past every byte written and past every chunk placed at an explicit
 * offset, so a chunk placed there sorts after all others.
 */
export function endOffset(chunks: readonly DetailChunk[]): number {
  let end = detailSize(chunks);
  for (const chunk of chunks) end = Math.max(end, chunk.offset + Buffer.byteLength(chunk.text, "utf8"));
  return end;
}

/**
 * Adds a chunk and answers the new list. Without an offset the chunk goes at the end
 * ({@link endOffset}). An empty text adds nothing (blank detail is allowed but writes no chunk).
 */
export function appendChunk(chunks: readonly DetailChunk[], text: string, offset?: number): DetailChunk[] {
  if (text === "") return [...chunks];
  const seq = chunks.reduce((max, chunk) => Math.max(max, chunk.seq), -1) + 1;
  const at = offset ?? endOffset(chunks);
  return [...chunks, { offset: at, text, seq }];
}
