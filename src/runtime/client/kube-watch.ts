import { STATUS_CODES } from "node:http";
import type { KubernetesObject } from "@kubernetes/client-node/dist/types.js";
import type { Watch } from "@kubernetes/client-node/dist/watch.js";
import type { RawKube } from "./kube-raw.ts";

type Callback = (phase: string, apiObj: KubernetesObject, watchObj?: unknown) => void;

/**
 * The watch client-node's ListWatch drives (its `Watch.watch` contract), over RawKube's undici
 * dispatcher: client-node's own Watch reads each stream through undici's fetch and web streams,
 * which `run` then loads for nothing else (fetch, Request, Response, Headers, WebIDL: a fifth of
 * the process's JavaScript heap at idle). Each event's object is handed over as the caches keep
 * it (`slim`, cache-slim.ts).
 *
 * The contract, as client-node keeps it: `done` is called once, with null when the apiserver ends
 * the stream, an Error with `statusCode` when it answers other than 200 (410: list again), a
 * `TimeoutError` after `requestTimeoutMs` without a byte (ListWatch then watches again from the
 * same resourceVersion), else the failure. The returned controller stops the watch.
 */
export class KubeWatch {
  requestTimeoutMs = 30_000;
  /** The longest event line read (an object is at most about 1.5 MB in etcd). */
  maxEventChars = 16 * 1024 * 1024;
  private readonly kube: Pick<RawKube, "stream">;
  private readonly slim: (o: KubernetesObject) => KubernetesObject;

  constructor(kube: Pick<RawKube, "stream">, slim: (o: KubernetesObject) => KubernetesObject) {
    this.kube = kube;
    this.slim = slim;
  }

  async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: Callback,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    const query = new URLSearchParams({ watch: "true" });
    for (const [key, value] of Object.entries(queryParams))
      if (value !== undefined) query.set(key, String(value));
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    let ended = false;
    const end = (err: unknown) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      controller.abort();
      done(err && timedOut ? new DOMException("The watch timed out", "TimeoutError") : err);
    };
    const resetTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        end(new Error("timed out"));
      }, this.requestTimeoutMs);
      timer.unref();
    };
    try {
      resetTimer();
      const res = await this.kube.stream(`${path}?${query}`, controller.signal);
      if (res.statusCode !== 200) {
        await res.body.dump();
        const error = new Error(STATUS_CODES[res.statusCode] ?? "Internal Server Error") as Error & {
          statusCode: number;
        };
        error.statusCode = res.statusCode;
        throw error;
      }
      resetTimer();
      res.body.setEncoding("utf8");
      let rest = "";
      res.body.on("data", (chunk: string) => {
        if (ended) return;
        resetTimer();
        rest += chunk;
        // Each line handed over, then what follows the last one kept (one copy per chunk).
        let start = 0;
        let newline = rest.indexOf("\n");
        while (newline >= 0 && !ended) {
          this.event(rest.slice(start, newline), callback);
          start = newline + 1;
          newline = rest.indexOf("\n", start);
        }
        rest = start > 0 ? rest.slice(start) : rest;
        // A read from the network is bounded: an event is one object, far below this.
        if (rest.length > this.maxEventChars)
          end(new Error(`a watch event of more than ${this.maxEventChars} characters; watching again`));
      });
      res.body.on("error", end);
      res.body.on("end", () => end(null));
      res.body.on("close", () => end(null));
    } catch (error) {
      end(error);
    }
    return controller;
  }

  /** One line of the stream: a watch event (a line that is not JSON is skipped, as client-node does). */
  private event(line: string, callback: Callback): void {
    let event: { type: string; object: KubernetesObject };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      return;
    }
    callback(event.type, event.type === "ERROR" ? event.object : this.slim(event.object), event);
  }
}

/** What ListWatch's constructor takes: it calls only `watch`. */
export function asWatch(w: KubeWatch): Watch {
  return w as unknown as Watch;
}
