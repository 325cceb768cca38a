import { it } from "vitest";
import type { Differ } from "./differ.ts";
import { core, GROUP } from "./fixtures.ts";

const MERGE = "application/merge-patch+json";

/** Events through both APIs, and Leases as leader election writes them. */
export function eventAndLeaseCases(differ: () => Differ): void {
  it("stores Events and reads them through core/v1 and events.k8s.io/v1", async () => {
    const d = differ();
    const ns = d.namespace;
    const regarding = {
      apiVersion: `${GROUP}/v1`,
      kind: "Gizmo",
      name: "g1",
      namespace: ns,
      uid: "00000000-0000-0000-0000-000000000001",
    };
    await d.http("POST core event", {
      method: "POST",
      path: core(ns, "events"),
      body: {
        metadata: { name: "g1.core" },
        involvedObject: regarding,
        reason: "Created",
        message: "made it",
        type: "Normal",
        count: 1,
        firstTimestamp: "2025-01-01T00:00:00Z",
        lastTimestamp: "2025-01-01T00:00:00Z",
        source: { component: "differential" },
      },
    });
    await d.http("POST events.k8s.io event", {
      method: "POST",
      path: `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
      body: {
        apiVersion: "events.k8s.io/v1",
        kind: "Event",
        metadata: { name: "g1.new" },
        regarding,
        reason: "Updated",
        note: "changed it",
        type: "Warning",
        action: "Update",
        eventTime: "2025-01-01T00:00:00.000000Z",
        reportingController: "differential.svc.io/suite",
        reportingInstance: "suite-1",
      },
    });
    await d.http("GET core event through events.k8s.io", {
      path: `/apis/events.k8s.io/v1/namespaces/${ns}/events/g1.core`,
    });
    await d.http("GET events.k8s.io event through core", { path: core(ns, "events", "g1.new") });
    await d.http("PATCH core event count", {
      method: "PATCH",
      path: core(ns, "events", "g1.core"),
      contentType: MERGE,
      body: { count: 2, lastTimestamp: "2025-01-01T00:01:00Z" },
    });
    await d.http("LIST events by involvedObject", {
      path: `${core(ns, "events")}?fieldSelector=involvedObject.name%3Dg1,involvedObject.kind%3DGizmo`,
    });
    await d.http("LIST events by reason", { path: `${core(ns, "events")}?fieldSelector=reason%3DUpdated` });
    await d.http("LIST events.k8s.io events", { path: `/apis/events.k8s.io/v1/namespaces/${ns}/events` });
    await d.http("POST event of another namespace's object", {
      method: "POST",
      path: core(ns, "events"),
      body: {
        metadata: { name: "elsewhere" },
        involvedObject: { ...regarding, namespace: "default" },
        reason: "X",
        message: "y",
      },
    });
    await d.http("POST events.k8s.io event missing fields", {
      method: "POST",
      path: `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
      body: {
        apiVersion: "events.k8s.io/v1",
        kind: "Event",
        metadata: { name: "thin" },
        regarding,
        reason: "R",
      },
    });
  });

  it("keeps Leases as leader election writes them", async () => {
    const d = differ();
    const ns = d.namespace;
    const leases = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
    const spec = {
      holderIdentity: "one",
      leaseDurationSeconds: 15,
      acquireTime: "2025-01-01T00:00:00.000000Z",
      renewTime: "2025-01-01T00:00:00.000000Z",
      leaseTransitions: 0,
    };
    await d.http("POST lease", {
      method: "POST",
      path: leases,
      body: { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "leader" }, spec },
    });
    const got = await d.http("GET lease", { path: `${leases}/leader` });
    const renew = (body: unknown) => {
      const lease = structuredClone(body) as { spec: Record<string, unknown> };
      lease.spec.renewTime = "2025-01-01T00:00:10.000000Z";
      lease.spec.holderIdentity = "two";
      lease.spec.leaseTransitions = 1;
      return lease;
    };
    const put = await d.both((s) =>
      s.call({
        method: "PUT",
        path: `${leases}/leader`,
        body: renew(s === d.pair.dev ? got.dev.body : got.real.body),
      }),
    );
    d.alike("PUT lease renewed", put.dev, put.real);
    const stale = await d.both((s) =>
      s.call({
        method: "PUT",
        path: `${leases}/leader`,
        body: renew(s === d.pair.dev ? got.dev.body : got.real.body),
      }),
    );
    d.alike("PUT lease stale", stale.dev, stale.real);
    await d.http("POST lease invalid duration", {
      method: "POST",
      path: leases,
      body: { metadata: { name: "bad" }, spec: { leaseDurationSeconds: 0, holderIdentity: "x" } },
    });
    await d.http("LIST leases", { path: leases });
    await d.http("DELETE lease", { method: "DELETE", path: `${leases}/leader` });
  });
}
