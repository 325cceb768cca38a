import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import {
  createCr,
  deleteAndWaitGone,
  getCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  serviceApi,
  setFaults,
  simCount,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
} from "./harness.ts";

/**
 * The operator's audit trail in the service (spec 4.14), end to end: the entry's detail text as
 * `GET /api/audit_entries/:id/detail` shows it, for a create, an update, a drift correction and a
 * delete; the Account's off switch; failures that leave the resource Ready.
 */

const IDENTITY = "audit-test-operator";
let stack: Stack;
let operator: Operator;
let api: ServiceApi;

beforeAll(async () => {
  stack = await startStack();
  operator = await startOperator(stack, { identity: IDENTITY });
  api = serviceApi(stack);
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
});

async function readyNamespace(account: Record<string, unknown> = {}): Promise<string> {
  const ns = await namespaceWithAccount(stack, { account });
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

/** The audit calls the simulator received (creates and appends), any status. */
async function auditCalls(): Promise<number> {
  return (
    (await simCount(stack, "POST", "/api/audit_entries")) +
    (await simCount(stack, "POST", "/api/audit_entries/:id/append"))
  );
}

/** Waits until the entry's detail text matches, and returns it. */
function detailMatching(entry: string, pattern: RegExp): Promise<string> {
  return waitFor(`${entry} detail matching ${pattern}`, async () => {
    const text = await api.auditEntries.detail(entry);
    return pattern.test(text) ? text : undefined;
  });
}

async function errorsCounted(kind: string, reason: string): Promise<number> {
  const metric = await operator.metrics.auditErrors.get();
  return metric.values.find((v) => v.labels.kind === kind && v.labels.reason === reason)?.value ?? 0;
}

const auditLogLines = (name: string) =>
  stack.logs.filter((l) => l.includes("could not write the audit trail") && l.includes(`"name":"${name}"`));

describe("audit trail", () => {
  it("records a create, an update, a drift correction and a delete in one entry, one call each, secrets masked", async () => {
    const ns = await readyNamespace();
    const before = await auditCalls();
    await createCr(stack, ns, "Deployment", "web", {
      description: "Web tier",
      inputs: { APP_ENV: "text:production", DB_PASSWORD: "cred:DB_PASSWORD", DB_URL: "cred:PROD_DB_URL" },
    });
    await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True");
    const created = await waitFor("status.auditEntryHref", async () => {
      const o = await getCr(stack, ns, "Deployment", "web");
      return o?.status?.auditEntryHref ? o : undefined;
    });
    const href = created.status!.href!;
    const entry = created.status!.auditEntryHref!;
    expect(entry).toMatch(/^\/api\/audit_entries\/\d+$/);
    const shown = await api.auditEntries.show(entry);
    expect(shown.links.find((l) => l.rel === "auditee")?.href).toBe(href);

    let text = await detailMatching(entry, /created Deployment/);
    // The spec's object fields, inputs one line each: a credential keeps its type, a secret name hides all.
    expect(text).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z ${IDENTITY} created Deployment ${ns}/web; reconcile [0-9a-f]{8}\\n`,
      ),
    );
    expect(text).toContain('  description: "Web tier"\n');
    expect(text).toContain('  inputs.APP_ENV: "text:production"\n');
    expect(text).toContain("  inputs.DB_PASSWORD: ***\n");
    expect(text).toContain('  inputs.DB_URL: "cred:***"\n');
    expect(text).not.toMatch(/PROD_DB_URL|cred:DB_PASSWORD/);

    await patchCr(stack, ns, "Deployment", "web", { spec: { description: "after" } });
    text = await detailMatching(entry, / updated Deployment /);
    expect(text).toMatch(
      new RegExp(
        `${IDENTITY} updated Deployment ${ns}/web; reconcile [0-9a-f]{8}\\n  description: "Web tier" -> "after"\\n$`,
      ),
    );
    expect((await api.auditEntries.show(entry)).summary).toBe(
      `svc-operator updated Deployment ${ns}/web: description`,
    );

    await api.deployments.update(href, { description: "by hand" });
    await operator.resyncNow();
    text = await detailMatching(entry, / corrected drift of /);
    expect(text).toMatch(
      / corrected drift of Deployment \S+; reconcile [0-9a-f]{8}\n {2}description: "by hand" -> "after"\n$/,
    );

    await deleteAndWaitGone(stack, ns, "Deployment", "web");
    text = await detailMatching(entry, / deleted Deployment /);
    expect(text).toMatch(new RegExp(`${IDENTITY} deleted Deployment ${ns}/web; reconcile [0-9a-f]{8}\\n$`));
    expect((await api.auditEntries.show(entry)).summary).toBe(`svc-operator deleted Deployment ${ns}/web`);
    // One entry (one create), one append per later change: four calls for four changes.
    expect(text.match(/; reconcile /g)).toHaveLength(4);
    expect((await auditCalls()) - before).toBe(4);
    expect(await errorsCounted("Deployment", "notFound")).toBe(0);
  });

  it("makes no audit call when the Account says auditTrail: false", async () => {
    const ns = await readyNamespace({ auditTrail: false });
    const before = await auditCalls();
    await createCr(stack, ns, "Deployment", "quiet", { description: "one" });
    await waitForCondition(stack, ns, "Deployment", "quiet", "Ready", "True");
    await patchCr(stack, ns, "Deployment", "quiet", { spec: { description: "two" } });
    await waitFor("updated", async () => {
      const o = await getCr(stack, ns, "Deployment", "quiet");
      return o?.status?.atProvider?.description === "two";
    });
    await deleteAndWaitGone(stack, ns, "Deployment", "quiet");
    expect(await auditCalls()).toBe(before);
  });

  it("an audit call that fails (simulator fault) leaves the resource Ready: counted and logged once", async () => {
    const ns = await readyNamespace();
    const counted = await errorsCounted("Network", "outcomeUnknown");
    // Every write is applied and its answer lost: the Network's create is found by a lookup, the
    // audit entry's create (not repeatable, like every audit call) fails.
    await setFaults(stack, { commitThenDrop: 1 });
    try {
      await createCr(stack, ns, "Network", "lost", { cloudHref: "/api/clouds/1", cidrBlock: "10.41.0.0/16" });
      await waitForCondition(stack, ns, "Network", "lost", "Ready", "True");
      await waitFor(
        "the audit failure counted",
        async () => (await errorsCounted("Network", "outcomeUnknown")) > counted,
      );
    } finally {
      await setFaults(stack, {});
    }
    expect(auditLogLines("lost")).toHaveLength(1);
    expect(auditLogLines("lost")[0]).toContain('"reason":"outcomeUnknown"');
    await deleteAndWaitGone(stack, ns, "Network", "lost");
  });

  it("failures of every call for an object (a role the credentials lack) are each counted, logged once", async () => {
    const ns = await readyNamespace();
    const counted = await errorsCounted("Network", "unauthorized");
    // Networks need security_manager; audit entries need actor or instance (spec 5.3 and the simulator).
    const revoked = ["actor", "instance"];
    for (const role of revoked) await api.permissions.destroy(`/api/permissions/1-${role}`);
    try {
      await createCr(stack, ns, "Network", "norole", {
        cloudHref: "/api/clouds/1",
        cidrBlock: "10.42.0.0/16",
      });
      await waitForCondition(stack, ns, "Network", "norole", "Ready", "True");
      await patchCr(stack, ns, "Network", "norole", { spec: { description: "changed" } });
      await waitFor(
        "two failures counted",
        async () => (await errorsCounted("Network", "unauthorized")) >= counted + 2,
      );
      const o = await waitForCondition(stack, ns, "Network", "norole", "Ready", "True");
      expect(o.status?.atProvider?.description).toBe("changed");
      expect(o.status?.auditEntryHref).toBeUndefined();
    } finally {
      for (const role of revoked)
        await api.permissions.create({ role_title: role, user_href: "/api/users/1" });
    }
    expect(auditLogLines("norole")).toHaveLength(1);
    await deleteAndWaitGone(stack, ns, "Network", "norole");
  });
});
