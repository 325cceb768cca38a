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
