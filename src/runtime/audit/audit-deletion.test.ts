import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { FakeKube } from "../testing/index.ts";
import { type AuditBatch, type AuditCalls, AuditTrail } from "./audit.ts";
import type { AuditChange } from "./audit-text.ts";

// A deletion waits for its audit line, and an Account being deleted for its resources' lines: the
// calls are made with the Account's client, closed once the Account is gone.

const NS = "team-a";
const CLIENT = { account: "default" };

/** The two audit calls, each held until the test opens it (in the order begun). */
class GatedAudit implements AuditCalls {
  readonly calls: string[] = [];
  readonly gates: (() => void)[] = [];
  fail: Error | undefined;
  private next = 1;
  private async held(): Promise<void> {
    await new Promise<void>((resolve) => this.gates.push(resolve));
  }
  async create(_client: unknown, p: { auditee_href: string; detail: string }) {
    await this.held();
    this.calls.push(`create ${p.auditee_href} ${p.detail.split("\n")[0]!.split(" ").slice(2, 4).join(" ")}`);
    if (this.fail) throw this.fail;
    return `/api/audit_entries/${this.next++}`;
  }
  async append(_client: unknown, href: string, p: { detail: string }) {
    await this.held();
    this.calls.push(`append ${href} ${p.detail.split("\n")[0]!.split(" ").slice(2, 4).join(" ")}`);
    if (this.fail) throw this.fail;
  }
  /** Opens the calls begun so far, and waits for their answers to be taken. */
  async open(): Promise<void> {
    for (const gate of this.gates.splice(0)) gate();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

let kube: FakeKube;
let service: GatedAudit;
let errors: string[];
let warnings: string[];
let lent: number;
let trail: AuditTrail;

beforeEach(() => {
  kube = new FakeKube();
  service = new GatedAudit();
  errors = [];
  warnings = [];
  lent = 0;
  kube.put("Account", { metadata: { name: "default", namespace: NS }, spec: { endpoint: "x" } });
  trail = new AuditTrail({
    identity: "op-1",
    store: kube,
    kube,
    log: pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) }),
    metrics: { auditError: (kind, reason) => errors.push(`${kind} ${reason}`) },
    calls: service,
    concurrency: 1,
    idleConcurrency: 1,
    lend: (wait) => {
      lent++;
      return wait;
    },
  });
});

function batch(name: string, changes: AuditChange[], known?: AuditBatch["known"]): AuditBatch {
  return {
    context: { kind: "Network", namespace: NS, name, reconcileId: "r1", writeOnly: [] },
    ref: { kind: "Network", plural: "networks", namespace: NS, name },
    uid: undefined,
    accountName: "default",
    client: CLIENT,
    known,
    changes,
  };
}

const change = (action: AuditChange["action"], auditee: string): AuditChange => ({
  action,
  auditee,
  at: 0,
  fields: [],
});

/** Whether the promise has settled by the time the calls pending now have been answered. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe("AuditTrail.written: a deletion's line, waited for", () => {
  it("resolves once the call is made, with the reconcile's slot lent meanwhile", async () => {
    const known = { auditee: "/api/networks/1", entry: "/api/audit_entries/9" };
    const written = trail.written(batch("a", [change("deleted", "/api/networks/1")], known));
    expect(await settledYet(written)).toBe(false);
    await service.open();
    await written;
    expect(service.calls).toEqual(["append /api/audit_entries/9 deleted Network"]);
    expect(lent).toBe(1);
  });

  it("goes ahead of the calls waiting for a slot", async () => {
    trail.submit(batch("a", [change("created", "/api/networks/1")]));
    trail.submit(batch("b", [change("created", "/api/networks/2")]));
    const written = trail.written(batch("c", [change("deleted", "/api/networks/3")]));
    await service.open();
    await service.open();
    await written;
    expect(service.calls).toEqual([
      "create /api/networks/1 created Network",
      "create /api/networks/3 deleted Network",
    ]);
    await service.open();
    await trail.settled();
  });

  it("a failure resolves it too: counted, and logged once", async () => {
    service.fail = new Error("The client is destroyed");
    const written = trail.written(batch("a", [change("deleted", "/api/networks/1")]));
    await service.open();
    await written;
    expect(errors).toEqual(["Network other"]);
    expect(warnings.filter((w) => w.startsWith("could not write the audit trail"))).toHaveLength(1);
  });

  it("a shutdown that gives it up resolves it: counted as shutdown", async () => {
    trail.submit(batch("a", [change("created", "/api/networks/1")]));
    const written = trail.written(batch("b", [change("deleted", "/api/networks/2")]));
    await trail.drain(0);
    await written;
    expect(errors).toEqual(["Network shutdown", "Network shutdown"]);
  });
});

describe("a deletion that found its object gone already", () => {
  const gone = (auditee: string): AuditChange => ({ ...change("deleted", auditee), foundGone: true });

  it("is appended to the entry the object has", async () => {
    const known = { auditee: "/api/route_tables/3", entry: "/api/audit_entries/4" };
    const written = trail.written(batch("t", [gone("/api/route_tables/3")], known));
    await service.open();
    await written;
    expect(service.calls).toEqual(["append /api/audit_entries/4 deleted Network"]);
  });

  it("makes no call for an object without one (the service takes no entry for an object that is gone)", async () => {
    await trail.written(batch("t", [gone("/api/route_tables/3")]));
    expect(service.calls).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe("AuditTrail.settledFor: an Account being deleted keeps its client until its resources' calls are done", () => {
  it("waits for every call of the Account's resources, those queued behind their object's earlier ones too", async () => {
    trail.submit(batch("a", [change("created", "/api/networks/1")]));
    trail.submit(batch("a", [change("updated", "/api/networks/1")]));
    const settled = trail.settledFor(NS, "default");
    await service.open();
    expect(await settledYet(settled)).toBe(false);
    await service.open();
    await settled;
    expect(service.calls).toHaveLength(2);
  });

  it("another Account's calls are not waited for", async () => {
    kube.put("Account", { metadata: { name: "other", namespace: NS }, spec: { endpoint: "x" } });
    trail.submit({ ...batch("a", [change("created", "/api/networks/1")]), accountName: "other" });
    await trail.settledFor(NS, "default");
    await service.open();
    await trail.settled();
  });
});
