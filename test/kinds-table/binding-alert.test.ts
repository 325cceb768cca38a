import { describe, expect, it } from "vitest";
import {
  apply,
  deleteAndWaitGone,
  get,
  operatorStack,
  patch,
  simCalls,
  simRows,
  waitForCond,
} from "../kinds-storage/helpers.ts";
import { namespaceWithAccount, waitFor, waitForEventReason } from "../operator/harness.ts";
import { ALERT, C, I1, I3, SERVER } from "./cases.ts";

/**
 * What the IpAddressBinding and AlertSpec kinds do beyond the table kinds' standard treatment
 * (table-kinds.test.ts): a binding is replaced on any change and says whether it recurs; an
 * alert's file and variable are checked against its subject's metrics, through cached reads.
 */

const t = operatorStack();

const WAIT = 30_000;
const METRICS = "/api/clouds/:cloud_id/instances/:instance_id/monitoring_metrics";

/** Ready for the current generation. */
async function settled(ns: string, kind: string, name: string) {
  return waitFor(
    `${kind} ${name} Ready`,
    async () => {
      const o = await get(t.stack, ns, kind, name);
      const ready = o?.status?.conditions?.find((c) => c.type === "Ready")?.status === "True";
      return ready && o.status?.observedGeneration === o.metadata.generation ? o : undefined;
    },
    WAIT,
  );
}

const waiting = (ns: string, kind: string, name: string, message: RegExp) =>
  waitForCond(t.stack, ns, kind, name, "Ready", "False", {
    reason: "DependencyNotReady",
    message,
    timeoutMs: WAIT,
  });

/** The writes sent since `from` to the kind's own resources (not the audit trail's, not a token refresh). */
const writesTo = (from: number, resource: RegExp) => t.sent.slice(from).filter((w) => resource.test(w.path));
const BINDINGS = /\/ip_address_bindings/;
const ALERTS = /^\/api\/alert_specs/;

const bindingOf = (href: string) =>
  simRows(t.stack, "ip_address_bindings").find((r) => href.endsWith(`/${r.id}`));

describe("IpAddressBinding", { timeout: 120_000 }, () => {
  it("any change replaces the binding (delete, then create), and the status says whether it recurs", async () => {
    const ns = await namespaceWithAccount(t.stack);
    await apply(t.stack, ns, "IpAddress", "ip", { cloudHref: C });
    const spec = {
      cloudHref: C,
      ipAddressRef: { name: "ip" },
      instanceHref: I1,
      publicPort: 80,
      protocol: "TCP",
    };
    await apply(t.stack, ns, "IpAddressBinding", "b", spec);
    const first = await settled(ns, "IpAddressBinding", "b");
    expect(first.status?.atProvider).toMatchObject({ instanceHref: I1, recurring: false, privatePort: 80 });

    const writes = t.sent.length;
    await patch(t.stack, ns, "IpAddressBinding", "b", { spec: { instanceHref: I3, privatePort: 8080 } });
    const second = await settled(ns, "IpAddressBinding", "b");
    expect(second.status?.href).not.toBe(first.status?.href);
    expect(second.status?.atProvider).toMatchObject({ instanceHref: I3, recurring: true, privatePort: 8080 });
    expect(bindingOf(first.status!.href!)).toBeUndefined();
    expect(bindingOf(second.status!.href!)).toMatchObject({
      instance_href: I3,
      private_port: 8080,
      recurring: true,
    });
    expect(writesTo(writes, BINDINGS).map((w) => `${w.method} ${w.path}`)).toEqual([
      `DELETE ${first.status!.href}`,
      `POST ${C}/ip_address_bindings`,
    ]);
    await waitForEventReason(t.stack, ns, "b", "Replaced");
    await deleteAndWaitGone(t.stack, ns, "IpAddressBinding", "b");
    expect(bindingOf(second.status!.href!)).toBeUndefined();
  });

  it("binds a server's current instance; a server without one waits, before the old binding is deleted", async () => {
    const ns = await namespaceWithAccount(t.stack);
    await apply(t.stack, ns, "IpAddressBinding", "s", {
      cloudHref: C,
      serverHref: SERVER,
      publicPort: 22,
      protocol: "TCP",
    });
    const bound = await settled(ns, "IpAddressBinding", "s");
    expect(bound.status?.atProvider).toMatchObject({ instanceHref: I1, recurring: false });

    const writes = t.sent.length;
    await patch(t.stack, ns, "IpAddressBinding", "s", { spec: { serverHref: "/api/servers/2" } });
    await waiting(ns, "IpAddressBinding", "s", /spec\.serverHref: \/api\/servers\/2 has no current instance/);
    expect(writesTo(writes, BINDINGS)).toEqual([]);
    expect(bindingOf(bound.status!.href!)).toBeDefined();
    await deleteAndWaitGone(t.stack, ns, "IpAddressBinding", "s");
  });
});

describe("AlertSpec", { timeout: 120_000 }, () => {
  const alert = { ...ALERT, subjectHref: I1 };

  it("a file or variable the subject does not report waits, naming it and what it reports; nothing is written", async () => {
    const ns = await namespaceWithAccount(t.stack);
    const writes = t.sent.length;
    await apply(t.stack, ns, "AlertSpec", "a", { ...alert, file: "cpu-0/cpu-busy" });
    await waiting(
      ns,
      "AlertSpec",
      "a",
      /spec\.file: .* reports no metric cpu-0\/cpu-busy; it reports cpu-0\/cpu-idle, /,
    );
    expect(writesTo(writes, ALERTS)).toEqual([]);

    await patch(t.stack, ns, "AlertSpec", "a", { spec: { file: "cpu-0/cpu-idle" } });
    const href = (await settled(ns, "AlertSpec", "a")).status!.href!;
    await patch(t.stack, ns, "AlertSpec", "a", { spec: { file: "load/load" } });
    await waiting(
      ns,
      "AlertSpec",
      "a",
      /spec\.variable: load\/load of .* has no variable value; its variables are shortterm, midterm, longterm/,
    );
    expect(writesTo(writes, ALERTS).filter((w) => w.method === "PUT")).toEqual([]);

    await patch(t.stack, ns, "AlertSpec", "a", { spec: { variable: "shortterm" } });
    await settled(ns, "AlertSpec", "a");
    expect(
      t.sent
        .slice(writes)
        .filter((w) => w.method === "PUT")
        .map((w) => w.body),
    ).toEqual([{ alert_spec: { file: "load/load", variable: "shortterm" } }]);
    await deleteAndWaitGone(t.stack, ns, "AlertSpec", "a");
    expect(simRows(t.stack, "alert_specs").some((r) => href.endsWith(`/${r.id}`))).toBe(false);
  });

  it("alerts on one subject read its metrics once; a resync reads none", async () => {
    const ns = await namespaceWithAccount(t.stack);
    const subject = `${C}/instances/2`;
    const before = await simCalls(t.stack, "GET", METRICS);
    for (const name of ["one", "two", "three"])
      await apply(t.stack, ns, "AlertSpec", name, { ...alert, subjectHref: subject });
    for (const name of ["one", "two", "three"]) await settled(ns, "AlertSpec", name);
    expect((await simCalls(t.stack, "GET", METRICS)) - before).toBe(1);

    const resync = (await t.operator.resyncNow()).find((r) => r.kind === "AlertSpec")!;
    expect(resync).toMatchObject({ drifted: 0, missing: 0, individually: 0 });
    expect(resync.calls).toBe(1);
    expect((await simCalls(t.stack, "GET", METRICS)) - before).toBe(1);
  });
});
