import pino from "pino";
import { expect, it } from "vitest";
import { FakeKube } from "../testing/index.ts";
import { type AuditCalls, AuditTrail } from "./audit.ts";
import type { AuditChange } from "./audit-text.ts";

// What a queued audit task keeps: its changes and the few fields of the batch it needs, copied,
// not the batch and its context (a backlog of thousands of creates waits while converging).

const NS = "team-a";
const REF = { kind: "Network", plural: "networks", namespace: NS, name: "main" };

function setup() {
  const kube = new FakeKube();
  kube.put("Account", { metadata: { name: "default", namespace: NS }, spec: { endpoint: "x" } });
  kube.put("Network", { metadata: { name: "main", namespace: NS }, status: { href: "/api/networks/7" } });
  const sent: { summary: string; detail: string }[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const calls: AuditCalls = {
    async create(_client, p) {
      await gate;
      sent.push({ summary: p.summary, detail: p.detail });
      return `/api/audit_entries/${sent.length}`;
    },
    async append(_client, _href, p) {
      await gate;
      sent.push({ summary: p.summary, detail: p.detail });
    },
  };
  const errors: string[] = [];
  const trail = new AuditTrail({
    identity: "op-1",
    store: kube,
    kube,
    log: pino({ level: "silent" }),
    metrics: { auditError: (kind, reason) => errors.push(`${kind} ${reason}`) },
    calls,
    // One call at a time: a second object's task waits for the first one's call.
    idleConcurrency: 1,
  });
  const context = { kind: "Network", namespace: NS, name: "main", reconcileId: "r1", writeOnly: ["secret"] };
  const submit = (changes: AuditChange[]) =>
    trail.submit({
      context,
      ref: REF,
      uid: undefined,
      accountName: "default",
      client: {},
      known: undefined,
      changes,
    });
  return { trail, sent, open, errors, submit, context };
}

it("a queued task's call shows its reconcile and masks its write-only fields, whatever becomes of the batch's context", async () => {
  const { trail, sent, open, submit, context } = setup();
  submit([{ action: "updated", auditee: "/api/networks/8", at: 0, fields: [] }]);
  submit([
    {
      action: "created",
      auditee: "/api/networks/7",
      at: 0,
      fields: [
        { field: "description", new: "a" },
        { field: "secret", new: "hunter2" },
      ],
    },
  ]);
  // The task copied what it needs: a context reused or changed afterwards is not its own.
  context.reconcileId = "r2";
  context.writeOnly = [];
  open();
  await trail.settled();
  expect(sent).toHaveLength(2);
  const created = sent[1]!;
  expect(created.summary).toBe("svc-operator created Network team-a/main");
  expect(created.detail).toContain("reconcile r1");
  expect(created.detail).toContain('description: "a"');
  expect(created.detail).toContain("secret: ***");
  expect(created.detail).not.toContain("hunter2");
});

/** A trail whose calls wait until `open`, over `count` Networks, each with an object of its own. */
function backlog(options: { maxQueuedBytes?: number } = {}) {
  const kube = new FakeKube();
  kube.put("Account", { metadata: { name: "default", namespace: NS }, spec: { endpoint: "x" } });
  const calls: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entries = 0;
  const service: AuditCalls = {
    async create(_client, p) {
      await gate;
      const entry = `/api/audit_entries/${++entries}`;
      calls.push(`create ${p.auditee_href} ${entry}`);
      return entry;
    },
    async append(_client, href) {
      await gate;
      calls.push(`append ${href}`);
    },
  };
  const errors: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const trail = new AuditTrail({
    identity: "op-1",
    store: kube,
    kube,
    log: pino({ level: "warn" }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
    metrics: { auditError: (kind, reason) => errors.push(`${kind} ${reason}`) },
    calls: service,
    // Reconciles are running: the trail falls behind, as in a big converge.
    busy: () => true,
    ...options,
  });
  const submit = (i: number, action: AuditChange["action"]) =>
    trail.submit({
      context: { kind: "Network", namespace: NS, name: `n${i}`, reconcileId: `r${i}`, writeOnly: [] },
      ref: { ...REF, name: `n${i}` },
      uid: undefined,
      accountName: "default",
      client: {},
      known: undefined,
      changes: [
        {
          action,
          auditee: `/api/networks/${i}`,
          at: 0,
          fields: [{ field: "cidrBlock", new: "10.0.0.0/16" }],
        },
      ],
    });
  return { trail, calls, open, errors, logs, submit };
}

it("a converge's backlog beyond 10,000 objects is written whole once the calls go through, an object's change appended to the entry its create made", async () => {
  const { trail, calls, open, errors, logs, submit } = backlog();
  const objects = 12_000;
  for (let i = 0; i < objects; i++) submit(i, "created");
  // A few objects change again while their create waits: appended to the entry the create makes.
  for (let i = 0; i < objects; i += 1_000) submit(i, "updated");
  open();
  await trail.settled();
  expect(errors).toEqual([]);
  expect(logs).toEqual([]);
  expect(calls.filter((c) => c.startsWith("create"))).toHaveLength(objects);
  expect(calls.filter((c) => c.startsWith("append"))).toHaveLength(objects / 1_000);
  // Behind more objects than the trail remembers entries of (10,000): each change still goes to its entry.
  for (let i = 0; i < objects; i += 1_000) {
    const created = calls.findIndex((c) => c.startsWith(`create /api/networks/${i} `));
    const entry = calls[created]!.split(" ")[2];
    expect(calls.indexOf(`append ${entry}`)).toBeGreaterThan(created);
  }
});

it("changes beyond the queue's bytes are each counted, in one log line for them all (no error built per change)", async () => {
  const { trail, calls, open, errors, logs, submit } = backlog({ maxQueuedBytes: 3_000 });
  const objects = 100;
  for (let i = 0; i < objects; i++) submit(i, "created");
  open();
  await trail.settled();
  const lost = errors.filter((e) => e === "Network queueFull").length;
  expect(lost).toBeGreaterThan(objects / 2);
  expect(errors).toHaveLength(lost);
  expect(calls.length + lost).toBe(objects);
  expect(logs).toEqual([expect.objectContaining({ reason: "queueFull", queued: calls.length })]);
  expect(logs[0]).not.toHaveProperty("err");
  // Once it has room again and is full again: counted, not logged again.
  for (let i = objects; i < 2 * objects; i++) submit(i, "created");
  await trail.settled();
  expect(errors.length).toBeGreaterThan(lost);
  expect(logs).toHaveLength(1);
});

it("a deletion's change is taken even when the queue is full: its reconcile waits for it", async () => {
  const { trail, calls, open, errors, submit } = backlog({ maxQueuedBytes: 3_000 });
  for (let i = 0; i < 100; i++) submit(i, "created");
  const written = trail.written({
    context: { kind: "Network", namespace: NS, name: "gone", reconcileId: "r-gone", writeOnly: [] },
    ref: { ...REF, name: "gone" },
    uid: undefined,
    accountName: "default",
    client: {},
    known: { auditee: "/api/networks/999", entry: "/api/audit_entries/999" },
    changes: [{ action: "deleted", auditee: "/api/networks/999", at: 0, fields: [] }],
  });
  open();
  await written;
  await trail.settled();
  expect(calls).toContain("append /api/audit_entries/999");
  expect(errors.every((e) => e === "Network queueFull")).toBe(true);
});
