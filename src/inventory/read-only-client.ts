import { ApiClient, type ApiClientOptions } from "../api/client.ts";
import type { CallOptions, CallResult } from "../api/client-options.ts";
import { encodeQuery } from "../api/encoding.ts";
import { type ServiceApi, serviceApi } from "../api/index.ts";

/** A write asked of a client that only reads (`svc-operator export` and `plan` change nothing). */
export class ReadOnlyError extends Error {
  override name = "ReadOnlyError";
}

/**
 * The service client of the commands that only read: any call but a GET is refused before it is
 * sent (the authentication calls go their own way and still work), and each GET is made once per
 * run, whatever the number of objects that ask it (a cloud many networks name, a parent many
 * subnets name): answers within one run are the same anyway, and the calls stay few.
 */
export class ReadOnlyApiClient extends ApiClient {
  private readonly answers = new Map<string, Promise<CallResult>>();

  override call(options: CallOptions): Promise<CallResult> {
    if (options.method !== "GET")
      return Promise.reject(
        new ReadOnlyError(
          `refused ${options.method} ${options.path}: this command never writes to the service`,
        ),
      );
    // A call with a signal may be cut short for its caller alone: not shared.
    if (options.signal) return super.call(options);
    const key = options.path + encodeQuery(options.query);
    let answer = this.answers.get(key);
    if (!answer) {
      answer = super.call(options);
      this.answers.set(key, answer);
      answer.then(
        (a) => this.remember(a, options.query),
        () => {},
      );
    }
    return answer;
  }

  /**
   * A collection index shows each object as its show does (same view): each is remembered as the
   * answer of its href, so a spec naming a parent by href (a subnet's network) costs no call once
   * the parents' collection was listed.
   */
  private remember(answer: CallResult, query: CallOptions["query"]): void {
    // A filtered index shows fewer objects, each as its show does.
    const { view, filter: _filter, ...rest } = (query ?? {}) as Record<string, unknown>;
    if (Object.values(rest).some((v) => v !== undefined) || !answer.body.startsWith("[")) return;
    let items: unknown;
    try {
      items = JSON.parse(answer.body);
    } catch {
      return;
    }
    if (!Array.isArray(items)) return;
    for (const item of items as { links?: { rel?: string; href?: string }[] }[]) {
      const self = item?.links?.find((l) => l.rel === "self")?.href;
      if (!self) continue;
      const key = self + encodeQuery({ view } as CallOptions["query"]);
      if (!this.answers.has(key))
        this.answers.set(key, Promise.resolve({ ...answer, body: JSON.stringify(item) }));
    }
  }
}

/** Counts the service's answers (every exchange: auth, redirects and retries included). */
export interface CallCounter {
  calls: number;
}

/** The service client for one account, read-only, with its calls counted. */
export function readOnlyServiceApi(options: ApiClientOptions, counter: CallCounter): ServiceApi {
  return serviceApi(
    new ReadOnlyApiClient({
      ...options,
      onCall: (event) => {
        counter.calls++;
        options.onCall?.(event);
      },
    }),
  );
}
