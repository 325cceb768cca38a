import type { ServerResponse } from "node:http";

/**
 * Unsent output a watch may pile up after its initial events before it is closed: a client that
 * stops reading would otherwise make the server hold every later event for it. kube-apiserver's
 * cacher closes such a watcher too, once its buffer of events is full; the client watches again.
 * Above the 3 MiB body limit, so one large object never closes a watch whose client reads.
 */
export const WATCH_UNSENT_LIMIT_BYTES = 4 * 1024 * 1024;

/** What the socket is given at most ahead of what it has sent, and in pieces of how much. */
const IN_FLIGHT_BYTES = 128 * 1024;
const PIECE_CHARS = 64 * 1024;

/**
 * A watch stream's output. Events wait as the strings they are (one event's text is shared by
 * every watcher of the same shape) and go to the socket a piece at a time as it drains: a socket
 * copies what it is given (TLS encrypts it at once), so handing it everything made each watcher
 * that does not read hold a copy of every event of its own.
 *
 * The limit is on what waits after the initial events (the current objects or the backlog), which
 * the client asked for at once, as a list; a JSON character is counted as a byte.
 */
export class WatchWriter {
  private readonly queue: string[] = [];
  /** Characters of queue[0] already given to the socket. */
  private offset = 0;
  private queuedChars = 0;
  private live = false;
  /** At least what is still unsent of the initial events, once live. */
  private initialUnsent = 0;
  private ending = false;
  private readonly res: ServerResponse;
  private readonly limitBytes: number;

  constructor(res: ServerResponse, limitBytes = WATCH_UNSENT_LIMIT_BYTES) {
    this.res = res;
    this.limitBytes = limitBytes;
    res.on("drain", () => this.pump());
  }

  /** What was written and is not sent yet, here or in the socket. */
  get unsent(): number {
    return this.queuedChars + this.res.writableLength;
  }

  /** The initial events are written: from now on, what waits after them is held to the limit. */
  goLive(): void {
    this.live = true;
    this.initialUnsent = this.unsent;
  }

  /** Queues `text`, or answers false (queuing nothing) when the client is past the limit. */
  write(text: string): boolean {
    if (this.ending) return true;
    if (this.live) {
      const unsent = this.unsent;
      // What is left of the initial events is never more than the least seen unsent since.
      this.initialUnsent = Math.min(this.initialUnsent, unsent);
      if (unsent - this.initialUnsent > this.limitBytes) return false;
    }
    this.queue.push(text);
    this.queuedChars += text.length;
    this.pump();
    return true;
  }

  /** Ends the response once everything queued is sent. */
  end(): void {
    this.ending = true;
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0 && this.res.writableLength < IN_FLIGHT_BYTES && !this.res.destroyed) {
      const text = this.queue[0]!;
      // A slice of a string shares its characters: the queued text is not copied here.
      const piece =
        this.offset === 0 && text.length <= PIECE_CHARS
          ? text
          : text.slice(this.offset, this.offset + PIECE_CHARS);
      this.offset += piece.length;
      this.queuedChars -= piece.length;
      if (this.offset === text.length) {
        this.queue.shift();
        this.offset = 0;
      }
      // Past IN_FLIGHT_BYTES this write answers false, so the response emits `drain` once sent.
      this.res.write(piece);
    }
    if (this.ending && this.queue.length === 0 && !this.res.writableEnded) this.res.end();
  }
}
