// One tenant's unreachable Accounts do not stall the others. Namespace A's Accounts point at a
// local TCP server that accepts connections and never answers; with fewer reconcile slots than A
// has Accounts (--concurrency 2), namespace B's Account and its AlertSpecs still become Ready while
// every one of A's checks hangs: they hold no slot, and B's keys are served in turn with A's.
// Asserted by order (B Ready while the server holds A's connections open and no A Account has a
// check recorded), not by time. Then a check that gets no answer fails at --api-first-byte-timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { SilentServer } from "../support/silent-server.ts";
import {
  createCr,
  getCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  stopOperator,
  waitFor,
  waitForCondition,
  waitForConditionWith,
} from "./harness.ts";

const A_ACCOUNTS = 4;
const ALERT = {
  subjectHref: "/api/servers/1",
  file: "cpu-0/cpu-idle",
  variable: "value",
  condition: "<",
  threshold: "10",
  duration: 5,
  escalationName: "critical",
};

let stack: Stack;
let silent: SilentServer;
let silentUrl: string;

beforeAll(async () => {
  stack = await startStack();
  silent = new SilentServer();
  silentUrl = await silent.listen();
});
afterAll(async () => {
  await silent?.close();
  await stack?.close();
});

/** A namespace whose Accounts all point at the silent server. */
async function unreachableTenant(accounts: number): Promise<{ ns: string; names: string[] }> {
  const ns = await namespaceWithAccount(stack, { account: { endpoint: silentUrl } });
  const names = ["default"];
  for (let i = 1; i < accounts; i++) {
    const name = `unreachable-${i}`;
    await createCr(stack, ns, "Account", name, {
      endpoint: silentUrl,
      accountId: 1,
      oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
    });
    names.push(name);
  }
  return { ns, names };
}

describe("a tenant whose Accounts never answer", () => {
  it("holds no reconcile slot: another namespace's Account and AlertSpecs are Ready meanwhile", async () => {
    // Long enough that A's checks are still waiting for their first byte when B is Ready.
    const operator: Operator = await startOperator(stack, {
      concurrency: "2",
      "api-first-byte-timeout": "60s",
    });
    try {
      const a = await unreachableTenant(A_ACCOUNTS);
      await waitFor("A's checks waiting on the silent server", async () => silent.open.size >= 2);

      const b = await namespaceWithAccount(stack);
      for (let i = 0; i < 3; i++) await createCr(stack, b, "AlertSpec", `alert-${i}`, ALERT);
      await waitForCondition(stack, b, "Account", "default", "Ready", "True");
      for (let i = 0; i < 3; i++)
        await waitForCondition(stack, b, "AlertSpec", `alert-${i}`, "Ready", "True");

      // B is Ready while every one of A's checks still waits: one connection each, held open
      // (the server never answers, and its connections last until it closes them), and no A
      // Account has a check recorded (no condition: a failed check writes Ready and Synced).
      await waitFor("a connection for each of A's checks", async () => silent.open.size === A_ACCOUNTS);
      for (const name of a.names) {
        const account = await getCr(stack, a.ns, "Account", name);
        expect(account?.status?.conditions ?? [], name).toEqual([]);
      }
    } finally {
      await silent.close();
      silent = new SilentServer();
      silentUrl = await silent.listen();
      await stopOperator(stack, operator);
    }
  });

  it("fails its check at --api-first-byte-timeout: Synced=False, saying the endpoint sent no answer", async () => {
    const operator = await startOperator(stack, { "api-first-byte-timeout": "200ms" });
    try {
      const { ns } = await unreachableTenant(1);
      const account = await waitForConditionWith(stack, ns, "Account", "default", "Synced", "False", {
        reason: "ReconcileError",
      });
      const synced = account.status?.conditions?.find((c) => c.type === "Synced");
      expect(synced?.message).toContain(
        `${silentUrl} accepts connections but sent no answer within --api-first-byte-timeout`,
      );
      expect(synced?.message).toContain("no answer within 200 ms");
      expect(account.status?.conditions?.find((c) => c.type === "Ready")).toMatchObject({
        status: "False",
        reason: "ApiError",
      });
    } finally {
      await stopOperator(stack, operator);
    }
  });
});
