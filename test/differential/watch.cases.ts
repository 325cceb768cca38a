import { it } from "vitest";
import type { Differ } from "./differ.ts";
import type { Endpoint } from "./endpoints.ts";
import { gizmo, gizmos } from "./fixtures.ts";

const MERGE = "application/merge-patch+json";
type Doc = Record<string, unknown>;

/** A watch the server ends by itself (timeoutSeconds), read whole; the bound only guards a server that does not end it. */
const WATCH_SECONDS = 3;
const watch = (server: Endpoint, path: string, query: string) =>
  server.stream(`${path}?watch=true&timeoutSeconds=${WATCH_SECONDS}&${query}`, (WATCH_SECONDS + 5) * 1000);

/**
 * A watch's events without its bookmarks. The real server sends a bookmark only once its watch
 * cache has seen a resourceVersion past the watcher's, which without etcd's progress
 * notifications (the etcd 3.4.23 here has none) depends on unrelated writes: when they come is
 * not the same twice. A bookmark the real server does send is compared on its own.
 */
function events(stream: { status: number; lines: unknown[] }) {
  return { ...stream, lines: stream.lines.filter((e) => !isBookmark(e)) };
}

const isBookmark = (e: unknown) => (e as Doc)?.type === "BOOKMARK";

/** Watches: from a resourceVersion, with selectors, with bookmarks and initial events, ended by timeoutSeconds. */
export function watchCases(differ: () => Differ): void {
  it("streams the same events, bookmarks included, and ends at timeoutSeconds", async () => {
    const d = differ();
    const ns = d.namespace;
    await d.http("POST gizmo to watch", {
      method: "POST",
      path: gizmos(ns),
      body: gizmo("w0", { size: 2 }, { watch: "yes" }),
    });
    const listed = await d.http("LIST gizmos to watch", { path: `${gizmos(ns)}?labelSelector=watch` });
    const rv = (server: Endpoint) =>
      String(
        (((server === d.pair.dev ? listed.dev : listed.real).body as Doc).metadata as Doc).resourceVersion,
      );
    const changes: [string, Parameters<Endpoint["call"]>[0]][] = [
      [
        "POST gizmo watched",
        { method: "POST", path: gizmos(ns), body: gizmo("w1", { size: 2 }, { watch: "yes" }) },
      ],
      [
        "PATCH gizmo watched",
        { method: "PATCH", path: gizmos(ns, "w1"), contentType: MERGE, body: { spec: { size: 3 } } },
      ],
      [
        "PATCH gizmo out of the selection",
        {
          method: "PATCH",
          path: gizmos(ns, "w1"),
          contentType: MERGE,
          body: { metadata: { labels: { watch: null } } },
        },
      ],
      [
        "PATCH gizmo into the selection",
        {
          method: "PATCH",
          path: gizmos(ns, "w1"),
          contentType: MERGE,
          body: { metadata: { labels: { watch: "again" } } },
        },
      ],
      [
        "PATCH gizmo/status watched",
        {
          method: "PATCH",
          path: gizmos(ns, "w1", "status"),
          contentType: MERGE,
          body: { status: { phase: "Seen" } },
        },
      ],
      ["DELETE gizmo watched", { method: "DELETE", path: gizmos(ns, "w1") }],
    ];
    for (const [id, request] of changes) await d.http(id, request);
    // Watches from "now" (no resourceVersion: with bookmarks always, without them sometimes) and
    // sendInitialEvents (the watch list) need etcd's progress notifications, which the etcd
    // 3.4.23 of ../shared/envtest lacks (the real server answers a 500 ERROR event there): they
    // are not compared, but their validation is.
    const streams = await d.both((s) =>
      Promise.all([
        watch(s, gizmos(ns), `resourceVersion=${rv(s)}&allowWatchBookmarks=true`),
        watch(s, gizmos(ns), `resourceVersion=${rv(s)}&labelSelector=watch&allowWatchBookmarks=true`),
        watch(s, gizmos(ns), "labelSelector=watch&sendInitialEvents=true"),
        watch(s, gizmos(ns), "labelSelector=watch&resourceVersionMatch=Exact"),
        watch(
          s,
          gizmos(ns),
          `fieldSelector=metadata.name%3Dw0&resourceVersion=${rv(s)}&allowWatchBookmarks=true`,
        ),
      ]),
    );
    const ids = [
      "from a resourceVersion",
      "with a label selector",
      "sendInitialEvents without resourceVersionMatch",
      "resourceVersionMatch without sendInitialEvents",
      "quiet, bookmarks only",
    ];
    for (const [i, id] of ids.entries()) {
      d.alike(`WATCH gizmos ${id}`, events(streams.dev[i]!), events(streams.real[i]!));
      const realBookmark = streams.real[i]!.lines.find(isBookmark);
      if (realBookmark)
        d.alike(`WATCH gizmos ${id} bookmark`, streams.dev[i]!.lines.find(isBookmark), realBookmark);
    }
  });
}
