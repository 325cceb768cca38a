import { aheadOfOthers } from "../../api/index.ts";
import { BoundedMap } from "../../lib/index.ts";

export interface SharedAnswersOptions<T> {
  /** How long an answer is kept, from when it was asked for. */
  ttlMs: number;
  /** Answers kept; the least recently used go first (default: no bound, for few keys). */
  maxEntries?: number;
  /** Whether an answer is kept once it comes (default: every answer). */
  keep?: (answer: T) => boolean;
  now?: () => number;
}

interface Entry<T> {
  at: number;
  answer: Promise<T>;
}

/**
 * Answers of the service that many reconciles ask for by one key (a link's existence, a
 * collection's names, a kind's shared reads): one load per key at a time, its calls ahead of
 * others on the connections since every reader waits on it, the answer kept for a while. A failed
 * load is never kept, nor an answer `keep` refuses: the next reader loads again.
 */
export class SharedAnswers<T> {
  private readonly entries: BoundedMap<Entry<T>>;
  private readonly ttlMs: number;
  private readonly keep: (answer: T) => boolean;
  private readonly now: () => number;

  constructor(options: SharedAnswersOptions<T>) {
    this.entries = new BoundedMap(options.maxEntries ?? Number.POSITIVE_INFINITY);
    this.ttlMs = options.ttlMs;
    this.keep = options.keep ?? (() => true);
    this.now = options.now ?? Date.now;
  }

  /** The kept answer for `key` while fresh, else `load()`'s (one load, whoever asks meanwhile). */
  get(key: string, load: () => Promise<T>): Promise<T> {
    return this.peek(key) ?? this.put(key, aheadOfOthers(load));
  }

  /** The kept answer for `key` while fresh, else undefined (an expired one is dropped). */
  peek(key: string): Promise<T> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.at <= this.ttlMs) return entry.answer;
    this.entries.delete(key);
    return undefined;
  }

  /** How long ago the kept answer for `key` was asked for (undefined: none kept). */
  age(key: string): number | undefined {
    const entry = this.entries.get(key);
    return entry === undefined ? undefined : this.now() - entry.at;
  }

  /** Keeps `answer` for `key` (unless it fails or `keep` refuses it), and returns it. */
  put(key: string, answer: Promise<T>): Promise<T> {
    const entry = { at: this.now(), answer };
    this.entries.set(key, entry);
    const drop = () => {
      if (this.entries.peek(key) === entry) this.entries.delete(key);
    };
    answer.then((value) => {
      if (!this.keep(value)) drop();
    }, drop);
    return answer;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
