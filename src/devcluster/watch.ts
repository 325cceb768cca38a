import type { IncomingMessage, ServerResponse } from "node:http";
import { badRequest, type FieldError, fieldCause, invalid } from "./errors.ts";
import type { Obj } from "./meta.ts";
import type { Operations } from "./operations.ts";
import type { StoredEvent } from "./store.ts";
import { apiVersionOf, type ResourceType } from "./types.ts";
import { WATCH_UNSENT_LIMIT_BYTES, WatchWriter } from "./watch-writer.ts";

export interface WatchRequest {
  type: ResourceType;
  version: string;
  namespace?: string;
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  allowWatchBookmarks: boolean;
  /** Undefined when the client did not say. */
  sendInitialEvents?: boolean;
  resourceVersionMatch?: string;
  timeoutSeconds?: number;
  /** Set when the client asked for Tables (`kubectl get -w`): events carry one-row Tables. */
  table?: (object: Obj, noHeaders: boolean) => object;
}

interface OpenWatch {
  req: IncomingMessage;
  writer: WatchWriter;
  close(): void;
}

/** Open watch streams, so a fault can cut them all at once. */
export class WatchHub {
  private readonly open = new Set<OpenWatch>();
  private readonly bookmarkIntervalMs: number;
  private readonly minRequestTimeoutMs: number;
  private readonly random: () => number;
  private readonly unsentLimitBytes: number;
  private readonly onSlowClient: (path: string, unsentBytes: number) => void;

  constructor(
    options: {
      bookmarkIntervalMs?: number;
      minRequestTimeoutSeconds?: number;
      random?: () => number;
      /** Default WATCH_UNSENT_LIMIT_BYTES. */
      unsentLimitBytes?: number;
      /** Called once per watch closed because its client did not read. */
      onSlowClient?: (path: string, unsentBytes: number) => void;
    } = {},
  ) {
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? 60_000;
    this.minRequestTimeoutMs = (options.minRequestTimeoutSeconds ?? 1800) * 1000;
    this.random = options.random ?? Math.random;
    this.unsentLimitBytes = options.unsentLimitBytes ?? WATCH_UNSENT_LIMIT_BYTES;
    this.onSlowClient = options.onSlowClient ?? (() => {});
  }

  /**
   * The latest event's serializations, shared by every watcher of the same version: a write
   * reaches all watchers synchronously, so fan-out costs one stringify. Only one event is kept,
   * so the history does not hold serialized copies of itself.
   */
  private cached: { event: StoredEvent; lines: Map<string, string> } | undefined;

  private line(
    event: StoredEvent,
    kind: string,
    type: ResourceType,
    version: string,
    ops: Operations,
  ): string {
    if (this.cached?.event !== event) this.cached = { event, lines: new Map() };
    const byShape = this.cached.lines;
    const key = `${kind}|${type.group}|${type.resource}|${version}`;
    let text = byShape.get(key);
    if (text === undefined) {
      text = `${JSON.stringify({ type: kind, object: ops.serve(type, version, event.object) })}\n`;
      byShape.set(key, text);
    }
    return text;
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * Cuts every open watch: `reset` destroys the sockets (as a network failure or an apiserver
   * crash does), `close` ends the streams cleanly (as the apiserver's own timeout does).
   */
  cutAll(mode: "reset" | "close" = "reset"): number {
    const all = [...this.open];
    for (const watch of all) {
      if (mode === "reset") watch.req.socket.destroy();
      else watch.writer.end();
      watch.close();
    }
    return all.length;
  }

  /** Streams events as newline-delimited JSON until the timeout, a cut, or the client leaves. */
  serve(ops: Operations, watch: WatchRequest, req: IncomingMessage, res: ServerResponse): void {
    const { type, version } = watch;
    const refused = watchOptionErrors(watch);
    if (refused.length > 0) throw invalid("ListOptions", "meta.k8s.io", "", refused.map(fieldCause));
    const selection = ops.selection(type, watch);
    let fromRv: number | undefined;
    if (
      watch.resourceVersion !== undefined &&
      watch.resourceVersion !== "" &&
      watch.resourceVersion !== "0"
    ) {
      if (!/^\d+$/.test(watch.resourceVersion)) {
        throw badRequest(
          `resourceVersion: Invalid value: "${watch.resourceVersion}": must be a non-negative integer`,
        );
      }
      fromRv = Number(watch.resourceVersion);
    }
    const namespace = type.namespaced ? watch.namespace : undefined;
    const visible = (object: Obj | undefined): boolean => {
      if (!object) return false;
      if (namespace !== undefined && (object.metadata as Obj).namespace !== namespace) return false;
      return ops.matches(type, version, selection, object);
    };
    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-cache, private" });
    res.flushHeaders();
    let lastRv = ops.store.resourceVersion;
    const writer = new WatchWriter(res, this.unsentLimitBytes);
    const write = (text: string) => {
      if (closed || writer.write(text)) return;
      // Reset, not ended: an ended stream would still hold its unsent events for the client.
      entry.close();
      req.socket.destroy();
      this.onSlowClient(req.url?.split("?")[0] ?? "", writer.unsent);
    };
    const send = (eventType: string, object: Obj) =>
      write(`${JSON.stringify({ type: eventType, object })}\n`);
    // As the real server: the first Table event has the column definitions, later ones do not.
    let headersSent = false;
    const present = (object: Obj): object => {
      if (!watch.table) return object;
      const table = watch.table(object, headersSent);
      headersSent = true;
      return table;
    };
    const bookmark = (annotations?: Record<string, string>) => {
      // A built-in kind's empty object still says creationTimestamp: null (a Go struct's zero time).
      const metadata: Obj = {
        resourceVersion: String(lastRv),
        ...(type.custom ? {} : { creationTimestamp: null }),
      };
      if (annotations) metadata.annotations = annotations;
      send("BOOKMARK", { kind: type.kind, apiVersion: apiVersionOf(type.group, version), metadata });
    };
    const deliver = (event: StoredEvent) => {
      if (event.rv <= lastRv) return;
      lastRv = Math.max(lastRv, event.rv);
      const now = visible(event.object);
      const before = event.old !== undefined && visible(event.old);
      let kind: string | undefined;
      if (event.type === "DELETED") kind = now || before ? "DELETED" : undefined;
      else if (event.type === "ADDED") kind = now ? "ADDED" : undefined;
      else if (now && before) kind = "MODIFIED";
      else if (now) kind = "ADDED";
      else if (before) kind = "DELETED";
      if (!kind) return;
      if (kind === "DELETED" && event.type === "MODIFIED") {
        // An object that stops matching leaves as it was when it last matched, at the event's
        // resourceVersion (the real watch cache sends the previous object).
        const old = event.old as Obj;
        const gone = { ...old, metadata: { ...(old.metadata as Obj), resourceVersion: String(event.rv) } };
        send(kind, present(ops.serve(type, version, gone)) as Obj);
      } else if (watch.table) send(kind, present(ops.serve(type, version, event.object)) as Obj);
      else write(this.line(event, kind, type, version, ops));
    };

    // Subscribe first and buffer, so nothing written while the backlog is sent is lost.
    let live = false;
    const buffered: StoredEvent[] = [];
    const unsubscribe = ops.store.subscribe(
      type.storageKey,
      (event) => {
        if (live) deliver(event);
        else buffered.push(event);
      },
      // The resource is no longer served (its CRD was deleted): end the stream, as the real server does.
      () => {
        entry.close();
        writer.end();
      },
    );
    const timers: NodeJS.Timeout[] = [];
    let closed = false;
    const entry: OpenWatch = {
      req,
      writer,
      close: () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        for (const t of timers) clearTimeout(t);
        this.open.delete(entry);
      },
    };
    this.open.add(entry);
    res.on("close", entry.close);

    if (fromRv === undefined) {
      const snapshotRv = ops.store.resourceVersion;
      for (const object of ops.store.list(type.storageKey, namespace)) {
        if (visible(object)) send("ADDED", present(ops.serve(type, version, object)) as Obj);
      }
      lastRv = snapshotRv;
      fromRv = snapshotRv;
      if (watch.sendInitialEvents && watch.allowWatchBookmarks)
        bookmark({ "k8s.io/initial-events-end": "true" });
    } else {
      const backlog = ops.store.eventsSince(type.storageKey, fromRv);
      const current = ops.store.resourceVersion;
      if (backlog === "expired" || fromRv > current) {
        // What the real watch cache answers: HTTP 200, then one ERROR event carrying a 410 Status.
        // A resourceVersion from the future only happens here when a killed devcluster lost the
        // last writes before its state file caught up: the client must relist, so it gets 410 too.
        const message =
          backlog === "expired"
            ? `too old resource version: ${fromRv} (${ops.store.oldestKept(type.storageKey) + 1})`
            : `too large resource version: ${fromRv} (current ${current}): the devcluster restarted from an older state, relist`;
        send("ERROR", {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message,
          reason: "Expired",
          code: 410,
        });
        entry.close();
        writer.end();
        return;
      }
      lastRv = fromRv;
      for (const event of backlog) deliver(event);
    }
    for (const event of buffered) if (event.rv > lastRv) deliver(event);
    writer.goLive();
    live = true;

    // Without timeoutSeconds the real server still ends a watch after a random time between
    // --min-request-timeout (1800 s) and twice that, so clients must be ready to reconnect.
    const timeoutMs =
      watch.timeoutSeconds !== undefined && watch.timeoutSeconds > 0
        ? watch.timeoutSeconds * 1000
        : this.minRequestTimeoutMs * (1 + this.random());
    if (watch.allowWatchBookmarks) {
      // As the real watch cache: a bookmark every interval, and one 2 s before the watch ends,
      // so a client resumes from a recent resourceVersion even when nothing changed.
      const pretimeout = Date.now() + timeoutMs - 2_000;
      const schedule = () => {
        const now = Date.now();
        const at = Math.min(now + this.bookmarkIntervalMs, pretimeout);
        if (at >= now) timers.push(setTimeout(tick, at - now).unref());
      };
      const tick = () => {
        if (closed) return;
        lastRv = Math.max(lastRv, ops.store.resourceVersion);
        bookmark();
        if (Date.now() < pretimeout) schedule();
      };
      schedule();
    }
    timers.push(
      setTimeout(() => {
        entry.close();
        writer.end();
      }, timeoutMs).unref(),
    );
  }
}

/** The watch options the real server refuses (validateWatchOptions), with its words. */
function watchOptionErrors(watch: WatchRequest): FieldError[] {
  const errors: FieldError[] = [];
  const match = watch.resourceVersionMatch ?? "";
  const forbidden = (field: string, detail: string) =>
    errors.push({ type: "FieldValueForbidden", field, detail });
  if (watch.sendInitialEvents !== undefined && match !== "NotOlderThan")
    forbidden(
      "resourceVersionMatch",
      "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
    );
  if (match !== "") {
    if (watch.sendInitialEvents === undefined)
      forbidden(
        "resourceVersionMatch",
        "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
      );
    if (match !== "NotOlderThan")
      errors.push({
        type: "FieldValueNotSupported",
        field: "resourceVersionMatch",
        value: match,
        detail: 'supported values: "NotOlderThan"',
      });
    if (watch.sendInitialEvents === true && !watch.allowWatchBookmarks)
      forbidden(
        "allowWatchBookmarks",
        "allowWatchBookmarks must be set to true when sendInitialEvents is true",
      );
  }
  return errors;
}
