import { describe, expect, it } from "vitest";
import { FakeClock, memoryLog } from "../testing/index.ts";
import { EventRecorder } from "./events.ts";
import { KubeHttpError } from "./kube-raw.ts";

function fakeApi() {
  const created: { name: string; reason: string; count: number }[] = [];
  const patched: { name: string; body: { count: number } }[] = [];
  return {
    created,
    patched,
    api: {
      createNamespacedEvent: async ({
        body,
      }: {
        body: { metadata: { name: string }; reason: string; count: number };
      }) => {
        created.push({ name: body.metadata.name, reason: body.reason, count: body.count });
        return body;
      },
      patchNamespacedEvent: async ({ name, body }: { name: string; body: { count: number } }) => {
        patched.push({ name, body });
        return body;
      },
    },
  };
}

const obj = { metadata: { name: "web", namespace: "ns", uid: "u1" } };

describe("EventRecorder", () => {
  it("aggregates a repeated event into a count instead of a new Event", async () => {
    const f = fakeApi();
    const r = new EventRecorder({ api: f.api as never, clock: new FakeClock() });
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "boom");
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "boom");
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "boom");
    r.emit(obj, "Deployment", "Normal", "Created", "created /api/deployments/1");
    await r.flush();
    expect(f.created.map((c) => c.reason)).toEqual(["ReconcileError", "Created"]);
    expect(f.patched.map((p) => p.body.count)).toEqual([2, 3]);
    expect(f.patched[0]?.name).toBe(f.created[0]?.name);
  });

  it("rate-limits a flood per object (burst, then one per refill period)", async () => {
    const f = fakeApi();
    const clock = new FakeClock();
    const r = new EventRecorder({ api: f.api as never, clock, burst: 3, refillMs: 1000 });
    for (let i = 0; i < 10; i++) r.emit(obj, "Deployment", "Warning", "ReconcileError", `error ${i}`);
    await r.flush();
    expect(f.created).toHaveLength(3);
    clock.advance(1000);
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "later");
    r.emit(
      { metadata: { name: "other", namespace: "ns", uid: "u2" } },
      "Deployment",
      "Normal",
      "Created",
      "x",
    );
    await r.flush();
    expect(f.created.map((c) => c.reason)).toHaveLength(5);
  });
});

describe("EventRecorder caches", () => {
  it("keeps the most recently used aggregates (LRU), so memory does not grow with objects", async () => {
    const f = fakeApi();
    const r = new EventRecorder({ api: f.api as never, clock: new FakeClock(), cacheSize: 2 });
    const emit = (message: string) => r.emit(obj, "Deployment", "Warning", "ReconcileError", message);
    emit("a");
    emit("b");
    emit("a"); // a is now the most recently used
    emit("c"); // evicts b
    emit("a"); // still aggregated
    emit("b"); // a new Event again
    await r.flush();
    expect(f.created.map((c) => c.count)).toEqual([1, 1, 1, 1]);
    expect(f.patched.map((p) => p.body.count)).toEqual([2, 3]);
  });

  it("gives an object whose bucket was evicted a fresh burst", async () => {
    const f = fakeApi();
    const r = new EventRecorder({ api: f.api as never, clock: new FakeClock(), burst: 1, cacheSize: 1 });
    const other = { metadata: { name: "other", namespace: "ns", uid: "u2" } };
    r.emit(obj, "Deployment", "Normal", "Created", "1");
    r.emit(obj, "Deployment", "Normal", "Updated", "2"); // dropped: no token left
    r.emit(other, "Deployment", "Normal", "Created", "3"); // evicts obj's bucket
    r.emit(obj, "Deployment", "Normal", "Updated", "4");
    await r.flush();
    expect(f.created.map((c) => c.reason)).toEqual(["Created", "Created", "Updated"]);
  });

  it("forgets a deleted object's bucket and aggregates at once; a new object of that name starts afresh", async () => {
    const f = fakeApi();
    const r = new EventRecorder({ api: f.api as never, clock: new FakeClock(), burst: 2 });
    const other = { metadata: { name: "other", namespace: "ns", uid: "u2" } };
    r.emit(obj, "Deployment", "Normal", "Created", "1");
    r.emit(obj, "Deployment", "Normal", "Updated", "2");
    r.emit(other, "Deployment", "Normal", "Created", "3");
    const held = () =>
      Object.fromEntries(Object.entries(r.footprint()).map(([m, fp]) => [m, [...fp.keys!()].sort()]));
    expect(held()).toEqual({
      "events.buckets": ["Deployment/ns/other", "Deployment/ns/web"],
      "events.aggregates": ["Deployment/ns/other", "Deployment/ns/web"],
    });
    r.forget("Deployment/ns/web");
    expect(held()).toEqual({
      "events.buckets": ["Deployment/ns/other"],
      "events.aggregates": ["Deployment/ns/other"],
    });
    // Recreated under the same name (a new uid): a full burst, and a new Event for a message seen before.
    r.emit({ metadata: { ...obj.metadata, uid: "u3" } }, "Deployment", "Normal", "Created", "1");
    r.emit({ metadata: { ...obj.metadata, uid: "u3" } }, "Deployment", "Normal", "Updated", "2");
    await r.flush();
    expect(f.created.map((c) => c.reason)).toEqual(["Created", "Updated", "Created", "Created", "Updated"]);
    expect(f.patched).toEqual([]);
  });

  it("drops an evicted aggregate from its object's index too", async () => {
    const f = fakeApi();
    const r = new EventRecorder({ api: f.api as never, clock: new FakeClock(), cacheSize: 1 });
    const other = { metadata: { name: "other", namespace: "ns", uid: "u2" } };
    r.emit(obj, "Deployment", "Normal", "Created", "1");
    r.emit(other, "Deployment", "Normal", "Created", "2"); // evicts web's aggregate and bucket
    await r.flush();
    expect([...r.footprint()["events.aggregates"]!.keys!()]).toEqual(["Deployment/ns/other"]);
  });

  it("a repeat's patch waits for the Event's create (a slow create is never patched before it exists)", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = {
      createNamespacedEvent: async () => {
        order.push("create:start");
        await gate;
        order.push("create:done");
      },
      patchNamespacedEvent: async ({ body }: { body: { count: number } }) => {
        order.push(`patch:${body.count}`);
      },
    };
    const r = new EventRecorder({ api: api as never, clock: new FakeClock() });
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "boom");
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "boom");
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(["create:start"]);
    release();
    await r.flush();
    expect(order).toEqual(["create:start", "create:done", "patch:2"]);
  });

  it("an Event gone from the apiserver (its TTL) is created afresh with the count reached", async () => {
    const f = fakeApi();
    const gone = Object.assign(new Error('events "x" not found'), { code: 404 });
    const api = { ...f.api, patchNamespacedEvent: async () => Promise.reject(gone) };
    const r = new EventRecorder({ api: api as never, clock: new FakeClock() });
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "boom");
    r.emit(obj, "Deployment", "Warning", "ReconcileError", "boom");
    await r.flush();
    expect(f.created.map((c) => c.count)).toEqual([1, 2]);
    expect(f.created[1]?.name).not.toBe(f.created[0]?.name);
  });
});

describe("EventRecorder in a namespace being deleted", () => {
  /** kube-apiserver's answer to a create in a terminating namespace (NamespaceLifecycle admission). */
  const terminating = (namespace: string) =>
    new KubeHttpError(
      403,
      "POST",
      `/api/v1/namespaces/${namespace}/events`,
      JSON.stringify({
        kind: "Status",
        message: `events "web.1" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        reason: "Forbidden",
        details: {
          name: "web.1",
          kind: "events",
          causes: [{ reason: "NamespaceTerminating", message: `namespace ${namespace} is being terminated` }],
        },
        code: 403,
      }),
    );

  it("says once per namespace that it is being deleted, never that RBAC lacks a verb, and again after it worked", async () => {
    let refusing = true;
    const api = {
      createNamespacedEvent: async ({ namespace }: { namespace: string }) => {
        if (refusing) throw terminating(namespace);
      },
      patchNamespacedEvent: async () => {},
    };
    const { log, lines } = memoryLog("debug");
    const r = new EventRecorder({ api: api as never, clock: new FakeClock(), log });
    const other = { metadata: { name: "db", namespace: "ns", uid: "u2" } };
    r.emit(obj, "Network", "Normal", "Deleted", "deleted /api/networks/1");
    r.emit(other, "Subnet", "Normal", "Deleted", "deleted /api/clouds/1/subnets/2");
    r.emit(obj, "Network", "Warning", "ReconcileError", "boom");
    await r.flush();
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [
        30,
        'cannot create events in namespace ns (403 Forbidden: events "web.1" is forbidden: unable to create new ' +
          "content in namespace ns because it is being terminated); namespace ns is being deleted (kube-apiserver " +
          "creates nothing new in a terminating namespace): nothing to fix; the Events of its objects are " +
          "dropped until it is gone",
      ],
    ]);
    expect(lines[0]).toMatchObject({ namespace: "ns", reason: "namespaceTerminating" });
    // A namespace of that name made again, and deleted again: said again.
    refusing = false;
    r.emit(obj, "Network", "Normal", "Updated", "updated description");
    await r.flush();
    refusing = true;
    r.emit(obj, "Network", "Normal", "Deleted", "deleted /api/networks/3");
    await r.flush();
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.msg).join("\n")).not.toContain("rbac");
  });
});
