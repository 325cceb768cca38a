import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes, type ApiErrorKind } from "../../api/index.ts";
import { FakeKube } from "../testing/index.ts";
import {
  type AuditBatch,
  type AuditCalls,
  AuditTrail,
  type AuditTrailOptions,
  auditErrorReason,
} from "./audit.ts";
import type { AuditChange } from "./audit-text.ts";

const NS = "team-a";
/** The Account's service client as the reconciler hands it over (one per Account). */
const CLIENT = { account: "default" };
const REF = { kind: "Network", plural: "networks", namespace: NS, name: "main" };

/** The service's two audit calls, recorded; `gate` holds the next call until released. */
class FakeAudit implements AuditCalls {
  readonly calls: { op: "create" | "append"; href: string; summary: string; detail: string }[] = [];
  fail: ((op: "create" | "append") => Error | undefined) | undefined;
  gate: Promise<void> | undefined;
  /** When set, each call waits for its own gate, opened by the test (in the order begun). */
  gates: (() => void)[] | undefined;
  /** Calls begun and not yet answered, per client (one client per Account). */
  readonly inFlight = new Map<unknown, number>();
  maxInFlight = 0;
  private next = 1;
  private async held(client: unknown): Promise<void> {
    const n = (this.inFlight.get(client) ?? 0) + 1;
    this.inFlight.set(client, n);
    this.maxInFlight = Math.max(this.maxInFlight, n);
    const gates = this.gates;
    await (gates ? new Promise<void>((r) => gates.push(r)) : this.gate);
    this.inFlight.set(client, (this.inFlight.get(client) ?? 1) - 1);
  }
  async create(client: unknown, p: { auditee_href: string; summary: string; detail: string }) {
    await this.held(client);
    this.calls.push({ op: "create", href: p.auditee_href, summary: p.summary, detail: p.detail });
    const error = this.fail?.("create");
    if (error) throw error;
    return `/api/audit_entries/${this.next++}`;
  }
  async append(client: unknown, href: string, p: { detail: string; summary: string }) {
    await this.held(client);
    this.calls.push({ op: "append", href, summary: p.summary, detail: p.detail });
    const error = this.fail?.("append");
    if (error) throw error;
  }
}

function apiError(kind: ApiErrorKind, status: number): ApiError {
  return new ApiError({
    kind,
    code: ApiErrorCodes.server,
    method: "POST",
    href: "/api/audit_entries",
    status,
  });
}

let kube: FakeKube;
let service: FakeAudit;
let logs: Record<string, unknown>[];
let errors: string[];
let trail: AuditTrail;

function newTrail(
  options: Partial<
    Pick<AuditTrailOptions, "maxQueuedBytes" | "concurrency" | "idleConcurrency" | "busy">
  > = {},
): AuditTrail {
  return new AuditTrail({
    identity: "op-1",
    store: kube,
    kube,
    log: pino({ level: "warn" }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
    metrics: { auditError: (kind, reason) => errors.push(`${kind} ${reason}`) },
    calls: service,
    ...options,
  });
}

beforeEach(() => {
  kube = new FakeKube();
  service = new FakeAudit();
  logs = [];
  errors = [];
  kube.put("Account", { metadata: { name: "default", namespace: NS }, spec: { endpoint: "x" } });
  kube.put("Network", { metadata: { name: "main", namespace: NS }, status: { href: "/api/networks/7" } });
  trail = newTrail();
});

function change(action: AuditChange["action"], auditee = "/api/networks/7"): AuditChange {
  return { action, auditee, at: 0, fields: [{ field: "description", old: "a", new: "b" }] };
}

function batch(changes: AuditChange[], known?: AuditBatch["known"]): AuditBatch {
  return {
    context: { kind: "Network", namespace: NS, name: "main", reconcileId: "r1", writeOnly: [] },
    ref: REF,
    uid: kube.get("Network", NS, "main")?.metadata.uid,
    accountName: "default",
    client: CLIENT,
    known,
    changes,
  };
}

const status = () => kube.get("Network", NS, "main")?.status;

describe("AuditTrail: one entry per service object, one call per change", () => {
  it("creates the entry with the first change as its detail, and records its href in status", async () => {
    trail.submit(batch([change("created")]));
    await trail.settled();
    expect(service.calls).toEqual([
      {
        op: "create",
        href: "/api/networks/7",
        summary: "svc-operator created Network team-a/main",
        detail: expect.stringMatching(
          /^1970-01-01T00:00:00.000Z op-1 created Network team-a\/main; reconcile r1\n/,
        ),
      },
    ]);
    expect(status()?.auditEntryHref).toBe("/api/audit_entries/1");
  });

  it("appends each later change to that entry, the summary with it: one call each", async () => {
    trail.submit(batch([change("created")]));
    trail.submit(batch([change("updated")]));
    trail.submit(batch([change("driftCorrected")]));
    await trail.settled();
    expect(service.calls.map((c) => `${c.op} ${c.op === "append" ? c.href : ""}`)).toEqual([
      "create ",
      "append /api/audit_entries/1",
      "append /api/audit_entries/1",
    ]);
    expect(service.calls[2]?.summary).toBe(
      "svc-operator corrected drift of Network team-a/main: description",
    );
  });

  it("after a restart, appends to the entry the status names (no second entry)", async () => {
    trail.submit(batch([change("updated")], { auditee: "/api/networks/7", entry: "/api/audit_entries/42" }));
    await trail.settled();
    expect(service.calls.map((c) => `${c.op} ${c.href}`)).toEqual(["append /api/audit_entries/42"]);
  });

  it("ignores an entry the status names for another object (the one a replacement removed)", async () => {
    trail.submit(
      batch([change("created", "/api/networks/8")], {
        auditee: "/api/networks/7",
        entry: "/api/audit_entries/42",
      }),
    );
    await trail.settled();
    expect(service.calls.map((c) => `${c.op} ${c.href}`)).toEqual(["create /api/networks/8"]);
  });

  it("creates a new entry when the one it had is gone (404), and records it", async () => {
    service.fail = (op) => (op === "append" ? apiError("notFound", 404) : undefined);
    trail.submit(batch([change("updated")], { auditee: "/api/networks/7", entry: "/api/audit_entries/42" }));
    await trail.settled();
    expect(service.calls.map((c) => c.op)).toEqual(["append", "create"]);
    expect(status()?.auditEntryHref).toBe("/api/audit_entries/1");
    expect(errors).toEqual([]);
  });

  it("keeps the calls of one object in order: a change made while its entry is being created appends to it", async () => {
    let release = () => {};
    service.gate = new Promise<void>((r) => (release = r));
    trail.submit(batch([change("created")]));
    trail.submit(batch([change("updated")]));
    release();
    await trail.settled();
    expect(service.calls.map((c) => c.op)).toEqual(["create", "append"]);
  });

  it("makes no call when the Account turns the trail off", async () => {
    kube.put("Account", { metadata: { name: "default", namespace: NS }, spec: { auditTrail: false } });
    trail.submit(batch([change("created")]));
    await trail.beforeDelete(batch([]), "/api/networks/7");
    await trail.settled();
    expect(service.calls).toEqual([]);
    expect(status()?.auditEntryHref).toBeUndefined();
  });

  it("does not write the entry into the status of a resource that moved on to another object", async () => {
    kube.put("Network", { metadata: { name: "main", namespace: NS }, status: { href: "/api/networks/9" } });
    trail.submit(batch([change("deleted")]));
    await trail.settled();
    expect(service.calls.map((c) => c.op)).toEqual(["create"]);
    expect(status()?.auditEntryHref).toBeUndefined();
  });
});

describe("AuditTrail: a few calls at once per Account, the rest of its connections left to reconciles", () => {
  it("never has more than `concurrency` calls of one Account in flight; Accounts do not wait for each other", async () => {
    trail = newTrail({ concurrency: 2, busy: () => true });
    let release = () => {};
    service.gate = new Promise<void>((r) => (release = r));
    const [a, b] = [{ account: "a" }, { account: "b" }];
    kube.put("Account", { metadata: { name: "other", namespace: NS }, spec: {} });
    for (let i = 0; i < 5; i++) {
      trail.submit({ ...batch([change("created", `/api/networks/${i}`)]), client: a });
      trail.submit({ ...batch([change("created", `/api/networks/${i}`)]), client: b, accountName: "other" });
    }
    await new Promise((r) => setTimeout(r, 0));
    expect([service.inFlight.get(a), service.inFlight.get(b)]).toEqual([2, 2]);
    release();
    await trail.settled();
    expect(service.maxInFlight).toBe(2);
    expect(service.calls).toHaveLength(10);
  });

  it("takes more once no reconcile is queued or running, as soon as a call ends", async () => {
    let busy = true;
    trail = newTrail({ concurrency: 1, idleConcurrency: 3, busy: () => busy });
    const gates: (() => void)[] = [];
    service.gates = gates;
    const tick = () => new Promise((r) => setTimeout(r, 0));
    for (let i = 0; i < 6; i++) trail.submit(batch([change("created", `/api/networks/${i}`)]));
    await tick();
    expect(gates).toHaveLength(1);
    busy = false;
    gates[0]!();
    await tick();
    expect(gates).toHaveLength(4);
    for (const open of gates.slice(1)) open();
    await tick();
    for (const open of gates.slice(4)) open();
    await trail.settled();
    expect(service.calls).toHaveLength(6);
    expect(service.maxInFlight).toBe(3);
  });
});

describe("AuditTrail.beforeDelete", () => {
  it("makes no call for an object whose entry is known", async () => {
    await trail.beforeDelete(
      batch([], { auditee: "/api/networks/7", entry: "/api/audit_entries/42" }),
      "/api/networks/7",
    );
    expect(service.calls).toEqual([]);
  });

  it("creates an empty entry for an object without one, so that its deletion can be appended", async () => {
    await trail.beforeDelete(batch([]), "/api/networks/7");
    expect(service.calls).toEqual([
      {
        op: "create",
        href: "/api/networks/7",
        summary: "svc-operator audit trail of Network team-a/main",
        detail: "",
      },
    ]);
    trail.submit(batch([change("deleted")]));
    await trail.settled();
    expect(service.calls.map((c) => `${c.op} ${c.href}`)).toEqual([
      "create /api/networks/7",
      "append /api/audit_entries/1",
    ]);
    expect(service.calls[1]?.summary).toBe("svc-operator deleted Network team-a/main");
  });

  it("goes ahead of other objects' queued calls: the deletion waits for it", async () => {
    trail = newTrail({ concurrency: 1, busy: () => true });
    const gates: (() => void)[] = [];
    service.gates = gates;
    const tick = () => new Promise((r) => setTimeout(r, 0));
    for (let i = 0; i < 3; i++) trail.submit(batch([change("created", `/api/networks/${i}`)]));
    await tick();
    const ensured = trail.beforeDelete(batch([]), "/api/networks/7");
    for (let i = 0; i < 4; i++) {
      gates[i]?.();
      await tick();
    }
    await ensured;
    await trail.settled();
    expect(service.calls.map((c) => c.href)).toEqual([
      "/api/networks/0",
      "/api/networks/7",
      "/api/networks/1",
      "/api/networks/2",
    ]);
  });

  it("never throws: a failure is counted", async () => {
    service.fail = () => apiError("unauthorized", 403);
    await expect(trail.beforeDelete(batch([]), "/api/networks/7")).resolves.toBeUndefined();
    expect(errors).toEqual(["Network unauthorized"]);
  });
});

describe("AuditTrail failures: counted every time, logged once per object", () => {
  it("counts each failed call by kind and reason, and logs the object once", async () => {
    service.fail = () => apiError("retryable", 503);
    trail.submit(batch([change("created")]));
    trail.submit(batch([change("updated")]));
    await trail.settled();
    expect(errors).toEqual(["Network retryable", "Network retryable"]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ reason: "retryable", kind: "Network", namespace: NS, name: "main" });
  });

  it("logs again after a success (a new run of failures), never per attempt", async () => {
    service.fail = () => apiError("throttled", 429);
    trail.submit(batch([change("created")]));
    await trail.settled();
    service.fail = undefined;
    trail.submit(batch([change("updated")]));
    await trail.settled();
    service.fail = () => apiError("throttled", 429);
    trail.submit(batch([change("updated")]));
    trail.submit(batch([change("updated")]));
    await trail.settled();
    expect(errors).toHaveLength(3);
    expect(logs).toHaveLength(2);
  });

  it("remembers a bounded number of logged objects", async () => {
    const small = new AuditTrail({
      identity: "op-1",
      store: kube,
      kube,
      log: pino({ level: "warn" }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
      calls: service,
      maxLogged: 1,
    });
    service.fail = () => apiError("retryable", 503);
    const other = (name: string): AuditBatch => ({ ...batch([change("created")]), ref: { ...REF, name } });
    small.submit(other("a"));
    small.submit(other("b"));
    small.submit(other("a"));
    await small.settled();
    // "a" was forgotten when "b" was logged: logged again, memory stays at one object.
    expect(logs.map((l) => l.name)).toEqual(["a", "b", "a"]);
  });

  it("a change beyond the queue's bound is counted and logged, not dropped silently", async () => {
    trail = newTrail({ maxQueuedBytes: 600 });
    let release = () => {};
    service.gate = new Promise<void>((r) => (release = r));
    trail.submit(batch([change("created")]));
    trail.submit(batch([change("updated")]));
    release();
    await trail.settled();
    expect(errors).toEqual(["Network queueFull"]);
    expect(service.calls).toHaveLength(1);
  });

  it("at shutdown, what was not sent in time is counted (shutdown)", async () => {
    trail = newTrail({ concurrency: 1 });
    service.gate = new Promise<void>(() => {});
    trail.submit(batch([change("created")]));
    trail.submit(batch([change("updated", "/api/networks/8")]));
    await trail.drain(10);
    expect(errors).toEqual(["Network shutdown", "Network shutdown"]);
    // One line for all of them, however many objects.
    expect(logs).toEqual([
      expect.objectContaining({
        count: 2,
        reason: "shutdown",
        first: ["Network team-a/main", "Network team-a/main"],
      }),
    ]);
    trail.submit(batch([change("updated")]));
    expect(errors).toHaveLength(3);
    // Refused once stopped: counted, not logged (that would be a line per object).
    expect(logs).toHaveLength(1);
  });

  it("the metric's reason is bounded: the client's error kinds, ours, or other", () => {
    expect(auditErrorReason(apiError("outcomeUnknown", 500))).toBe("outcomeUnknown");
    expect(auditErrorReason(new Error("socket hang up: token=abc"))).toBe("other");
  });
});
