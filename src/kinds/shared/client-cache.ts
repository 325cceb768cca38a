import { SharedAnswers } from "../../runtime/sdk/index.ts";

export interface ClientCacheOptions {
  /** How long an answer is kept (default 30 min). */
  ttlMs?: number;
  /** Entries kept per service client; the least recently used go first (default 10,000). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Answers of the service, remembered per service client (one per Account, so an answer never
 * serves another account, and the entries go with the client) for a while: what kinds read
 * about objects they do not manage (a route table's network, the metrics an instance reports),
 * so that a reconcile or a resync costs no call once they are known. Concurrent reads of one key
 * share one load, whose calls go ahead of others (SharedAnswers); a failed read is not remembered.
 */
export class ClientCache<T> {
  private readonly byClient = new WeakMap<object, SharedAnswers<T>>();
  private readonly options: ClientCacheOptions;

  constructor(options: ClientCacheOptions = {}) {
    this.options = options;
  }

  /** The remembered answer for `key`, else `load()`'s, remembered. */
  get(client: object, key: string, load: () => Promise<T>): Promise<T> {
    return this.answers(client).get(key, load);
  }

  /** The remembered answer for `key` while fresh, else undefined. */
  peek(client: object, key: string): Promise<T> | undefined {
    return this.answers(client).peek(key);
  }

  put(client: object, key: string, value: Promise<T>): void {
    this.answers(client).put(key, value);
  }

  private answers(client: object): SharedAnswers<T> {
    let answers = this.byClient.get(client);
    if (!answers) {
      answers = new SharedAnswers({
        ttlMs: this.options.ttlMs ?? 30 * 60_000,
        maxEntries: this.options.maxEntries ?? 10_000,
        now: this.options.now,
      });
      this.byClient.set(client, answers);
    }
    return answers;
  }
}
