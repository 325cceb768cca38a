import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrd, eventually, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

type Widget = k8s.KubernetesObject & { spec?: { size?: number }; status?: { phase?: string } };

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ historyLimit: 50, bookmarkIntervalMs: 200 });
  await createCrd(h, widgetCrd());
  await h.core.createNamespace({ body: { metadata: { name: "inf" } } });
});
afterAll(async () => {
  await h.cluster.close();
});

const path = `/apis/${GROUP}/v1/namespaces/inf/widgets`;
const base = { group: GROUP, version: "v1", namespace: "inf", plural: "widgets" };

/** A JSON merge patch of a widget in `inf`, through client-node as the operator sends it. */
function mergePatch(name: string, body: object) {
  return h.custom.patchNamespacedCustomObject(
    { ...base, name, body },
    k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
  );
}

function makeInformer() {
  const listFn = () => h.custom.listNamespacedCustomObject(base) as Promise<k8s.KubernetesListObject<Widget>>;
  const informer = k8s.makeInformer<Widget>(h.kc, path, listFn);
  const seen: string[] = [];
  const errors: unknown[] = [];
  informer.on("add", (o) => seen.push(`add ${o.metadata?.name} ${o.spec?.size ?? ""}`));
  informer.on("update", (o) =>
    seen.push(`update ${o.metadata?.name} ${o.spec?.size ?? ""} ${o.status?.phase ?? ""}`),
  );
  informer.on("delete", (o) => seen.push(`delete ${o.metadata?.name}`));
  informer.on("error", (e) => errors.push(e));
  return { informer, seen, errors };
}

// biome-ignore lint/suspicious/noExplicitAny: watch events are read as loose JSON
type WatchEvent = { type: string; object: Record<string, any> };

async function watchLines(query: string, count: number): Promise<WatchEvent[]> {
  const controller = new AbortController();
  const res = await h.http(`${path}?watch=true&${query}`, { signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const events: WatchEvent[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      events.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf("\n");
    }
  }
  controller.abort();
  return events;
}

describe("client-node informer against the devcluster", () => {
  it("sees create, update, status update and delete through list+watch", async () => {
    await h.custom.createNamespacedCustomObject({
      ...base,
      body: { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name: "pre" }, spec: { size: 0 } },
    });
    const { informer, seen, errors } = makeInformer();
    await informer.start();
    try {
      await eventually(() => seen.includes("add pre 0"));
      await h.custom.createNamespacedCustomObject({
        ...base,
        body: { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name: "a" }, spec: { size: 1 } },
      });
      await eventually(() => seen.includes("add a 1"));
      await mergePatch("a", { spec: { size: 2 } });
      await eventually(() => seen.includes("update a 2 "));
      await h.custom.patchNamespacedCustomObjectStatus(
        { ...base, name: "a", body: { status: { phase: "Ready" } } },
        k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
      );
      await eventually(() => seen.includes("update a 2 Ready"));
      await h.custom.deleteNamespacedCustomObject({ ...base, name: "a" });
      await eventually(() => seen.includes("delete a"));
      expect(informer.list().map((o) => o.metadata?.name)).toEqual(["pre"]);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
      await h.custom.deleteNamespacedCustomObject({ ...base, name: "pre" });
    }
  });

  it("resumes a watch from a resourceVersion with exactly the later events", async () => {
    const created = (await h.custom.createNamespacedCustomObject({
      ...base,
      body: { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name: "r" }, spec: { size: 1 } },
    })) as Widget;
    const rv = created.metadata!.resourceVersion!;
    await mergePatch("r", { spec: { size: 5 } });
    await h.custom.deleteNamespacedCustomObject({ ...base, name: "r" });
    const events = await watchLines(`resourceVersion=${rv}`, 2);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(["MODIFIED r", "DELETED r"]);
    expect(events[0]!.object.spec.size).toBe(5);
    expect(Number(events[1]!.object.metadata.resourceVersion)).toBeGreaterThan(
      Number(events[0]!.object.metadata.resourceVersion),
    );
  });

  it("answers a too-old resourceVersion with the real 410 Expired event; a closed watch is resumed", async () => {
    const { informer, seen, errors } = makeInformer();
    await informer.start();
    try {
      await h.custom.createNamespacedCustomObject({
        ...base,
        body: { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name: "old" }, spec: { size: 1 } },
      });
      await eventually(() => seen.includes("add old 1"));
      const staleRv = await currentRv();
      // Push the history window (50 events) past the resourceVersion seen before.
      for (let i = 0; i < 60; i++) {
        await mergePatch("old", { spec: { size: 100 + i } });
      }
      const events = await watchLines(`resourceVersion=${staleRv}`, 1);
      expect(events[0]).toMatchObject({
        type: "ERROR",
        object: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "Expired", code: 410 },
      });
      expect(events[0]!.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
      // The informer's own watch is live, so it saw every change; cut it and it reconnects.
      const cut = await h.http("/__dev/faults/cut-watches?mode=close", { method: "POST" });
      expect(await cut.json()).toMatchObject({ mode: "close" });
      await mergePatch("old", { spec: { size: 7 } });
      await eventually(() => informer.get("old", "inf")?.spec?.size === 7);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it("relists when the resourceVersion it resumes from has expired (410), unmodified", async () => {
    // A label-filtered informer's resourceVersion only moves with the events it is sent, so writes
    // to objects it does not select push the history window past it while it is connected.
    let lists = 0;
    const listFn = () => {
      lists += 1;
      return h.custom.listNamespacedCustomObject({ ...base, labelSelector: "keep=yes" }) as Promise<
        k8s.KubernetesListObject<Widget>
      >;
    };
    const informer = k8s.makeInformer<Widget>(h.kc, path, listFn, "keep=yes");
    const errors: unknown[] = [];
    informer.on("error", (e) => errors.push(e));
    await h.custom.createNamespacedCustomObject({
      ...base,
      body: {
        apiVersion: `${GROUP}/v1`,
        kind: "Widget",
        metadata: { name: "kept", labels: { keep: "yes" } },
        spec: { size: 1 },
      },
    });
    await informer.start();
    try {
      await eventually(() => informer.get("kept", "inf") !== undefined);
      expect(lists).toBe(1);
      for (let i = 0; i < 60; i++) {
        await mergePatch("old", { spec: { size: 200 + i } });
      }
      await h.http("/__dev/faults/cut-watches?mode=close", { method: "POST" });
      await eventually(() => lists === 2);
      await mergePatch("kept", { spec: { size: 2 } });
      await eventually(() => informer.get("kept", "inf")?.spec?.size === 2);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it("reports a reset connection as an error (what the operator must restart on)", async () => {
    const { informer, errors } = makeInformer();
    await informer.start();
    try {
      await eventually(async () => {
        const res = await h.http("/__dev/faults/cut-watches", { method: "POST" });
        const body = (await res.json()) as { cut: number; mode: string };
        return body.cut > 0 && body.mode === "reset";
      });
      await eventually(() => errors.length > 0);
    } finally {
      await informer.stop();
    }
  });

  it("sends bookmarks when allowed, with the current resourceVersion", async () => {
    const events = await watchLines("allowWatchBookmarks=true&resourceVersion=0", 3);
    const bookmark = events.find((e) => e.type === "BOOKMARK");
    expect(bookmark).toBeDefined();
    expect(bookmark!.object).toMatchObject({ kind: "Widget", apiVersion: `${GROUP}/v1` });
    expect(Number(bookmark!.object.metadata.resourceVersion)).toBeGreaterThan(0);
  });

  it("serves the deprecated single-object watch forms", async () => {
    for (const name of ["one-a", "one-b"]) {
      await h.custom.createNamespacedCustomObject({
        ...base,
        body: { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name }, spec: { size: 1 } },
      });
    }
    for (const url of [
      `${path}/one-a?watch=true&timeoutSeconds=1`,
      `/apis/${GROUP}/v1/watch/namespaces/inf/widgets/one-a?timeoutSeconds=1`,
    ]) {
      const text = await (await h.http(url)).text();
      const names = text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l).object.metadata.name);
      expect(names).toEqual(["one-a"]);
    }
  });

  it("ends a watch after timeoutSeconds", async () => {
    const res = await h.http(`${path}?watch=true&timeoutSeconds=1`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(
      text
        .split("\n")
        .filter(Boolean)
        .every((l) => JSON.parse(l).type === "ADDED"),
    ).toBe(true);
  });

  it("filters a watch by label selector, turning label changes into ADDED and DELETED", async () => {
    const watching = watchLines("labelSelector=team%3Dblue&resourceVersion=" + (await currentRv()), 3);
    await new Promise((r) => setTimeout(r, 50));
    await h.custom.createNamespacedCustomObject({
      ...base,
      body: {
        apiVersion: `${GROUP}/v1`,
        kind: "Widget",
        metadata: { name: "lab", labels: { team: "red" } },
        spec: {},
      },
    });
    const patch = (team: string) => mergePatch("lab", { metadata: { labels: { team } } });
    await patch("blue");
    await mergePatch("lab", { spec: { size: 3 } });
    await patch("green");
    const events = await watching;
    expect(events.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
  });
});

async function currentRv(): Promise<string> {
  const list = (await h.custom.listNamespacedCustomObject(base)) as k8s.KubernetesListObject<Widget>;
  return list.metadata!.resourceVersion!;
}

describe("the server's own watch timeout", () => {
  it("ends watches without timeoutSeconds after 1-2x minRequestTimeoutSeconds; the informer reconnects", async () => {
    const short = await startHarness({ minRequestTimeoutSeconds: 1 });
    try {
      await createCrd(short, widgetCrd());
      const started = Date.now();
      const res = await short.http(`/apis/${GROUP}/v1/namespaces/default/widgets?watch=true`);
      await res.text();
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(900);
      const listFn = () =>
        short.custom.listNamespacedCustomObject({
          group: GROUP,
          version: "v1",
          namespace: "default",
          plural: "widgets",
        }) as Promise<k8s.KubernetesListObject<Widget>>;
      const informer = k8s.makeInformer<Widget>(
        short.kc,
        `/apis/${GROUP}/v1/namespaces/default/widgets`,
        listFn,
      );
      const errors: unknown[] = [];
      informer.on("error", (e) => errors.push(e));
      await informer.start();
      try {
        await new Promise((r) => setTimeout(r, 2_200));
        await short.custom.createNamespacedCustomObject({
          group: GROUP,
          version: "v1",
          namespace: "default",
          plural: "widgets",
          body: {
            apiVersion: `${GROUP}/v1`,
            kind: "Widget",
            metadata: { name: "after-timeout" },
            spec: { size: 1 },
          },
        });
        await eventually(() => informer.get("after-timeout", "default") !== undefined);
        expect(errors).toEqual([]);
      } finally {
        await informer.stop();
      }
    } finally {
      await short.cluster.close();
    }
  });
});
