import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  condition,
  createCr,
  getCr,
  namespaceWithAccount,
  patchCr,
  type Stack,
  startOperator,
  startStack,
  waitFor,
  waitForCondition,
} from "./harness.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
});

describe("Account", () => {
  it("is Ready with the host it talks to when the refresh token works", async () => {
    const ns = await namespaceWithAccount(stack);
    const a = await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    expect(a.status?.host).toBe(stack.sim.url);
  });

  it("follows the regional redirect and shows the account's host", async () => {
    const ns = await namespaceWithAccount(stack, { account: { endpoint: stack.sim.regionUrl } });
    const a = await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    expect(a.status?.host).toBe(stack.sim.url);
  });

  it("works with session login (email and password keys)", async () => {
    const ns = await namespaceWithAccount(stack, {
      secretData: { email: "admin@example.com", password: "password" },
      account: { oauth: undefined, session: { secretRef: { name: "svc-credentials" } } },
    });
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  });

  it("a missing secret key is a clear condition; resources wait with DependencyNotReady and start once it is fixed", async () => {
    const ns = await namespaceWithAccount(stack, { secretData: { token: "dev-refresh-token" } });
    const a = await waitForCondition(stack, ns, "Account", "default", "Ready", "False", "SecretKeyMissing");
    expect(condition(a, "Ready")?.message).toBe(
      "Secret svc-credentials has no key refreshToken (spec.oauth.refreshTokenSecretRef.key)",
    );
    await createCr(stack, ns, "Deployment", "waits", {});
    const d = await waitForCondition(
      stack,
      ns,
      "Deployment",
      "waits",
      "Ready",
      "False",
      "DependencyNotReady",
    );
    expect(condition(d, "Ready")?.message).toContain(
      "Account default is not ready: Secret svc-credentials has no key refreshToken",
    );
    // Point the Account at the right key: it becomes Ready and the waiting Deployment proceeds at once.
    await patchCr(stack, ns, "Account", "default", {
      spec: { oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "token" } } },
    });
    // A new reconcile-requested-at value is handled and echoed.
    await patchCr(stack, ns, "Account", "default", {
      metadata: { annotations: { "cloud.svc.io/reconcile-requested-at": "fixed-the-key" } },
    });
    const fixed = await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    await waitForCondition(stack, ns, "Deployment", "waits", "Ready", "True");
    await waitFor(
      "echoed",
      async () =>
        (await getCr(stack, ns, "Account", "default"))?.status?.lastHandledReconcileAt === "fixed-the-key",
    );
    expect(fixed.status?.host).toBe(stack.sim.url);
  });

  const cannotAuthenticate: {
    reason: string;
    options: Parameters<typeof namespaceWithAccount>[1];
    want: string;
    message: string;
  }[] = [
    {
      reason: "the Secret is missing",
      options: { account: { oauth: { refreshTokenSecretRef: { name: "nope", key: "refreshToken" } } } },
      want: "SecretNotFound",
      message: "Secret nope (spec.oauth.refreshTokenSecretRef) not found",
    },
    {
      reason: "the Secret lacks the key",
      options: { secretData: { token: "dev-refresh-token" } },
      want: "SecretKeyMissing",
      message: "Secret svc-credentials has no key refreshToken (spec.oauth.refreshTokenSecretRef.key)",
    },
    {
      reason: "the service refuses the credentials",
      options: { secretData: { refreshToken: "wrong-token" } },
      want: "CredentialsInvalid",
      message: "the service refused the credentials",
    },
  ];
  it.each(cannotAuthenticate)(
    "$reason: Ready and Synced False with the one reason, in progress, one Warning event with that reason",
    async ({ options, want, message }) => {
      const ns = await namespaceWithAccount(stack, options);
      const a = await waitForCondition(stack, ns, "Account", "default", "Ready", "False", want);
      expect(condition(a, "Ready")?.message).toContain(message);
      // It cannot authenticate: not synced, whatever the cause; re-checked, so in progress, not stalled.
      expect(condition(a, "Synced")).toMatchObject({ status: "False", reason: want });
      expect(condition(a, "Reconciling")).toMatchObject({ status: "True", reason: want });
      expect(condition(a, "Stalled")).toMatchObject({ status: "False", reason: "Idle" });
      const events = await waitFor("the Account's event", async () => {
        const list = await stack.core.listNamespacedEvent({ namespace: ns });
        const mine = list.items.filter((e) => e.involvedObject.kind === "Account");
        return mine.length > 0 ? mine : undefined;
      });
      expect(events.map((e) => [e.type, e.reason])).toEqual([["Warning", want]]);
      expect(events[0]?.message).toContain(message);
      expect(JSON.stringify(a)).not.toContain("wrong-token");
      expect(stack.logs.join("\n")).not.toContain("wrong-token");
      expect(stack.logs.join("\n")).not.toContain("dev-refresh-token");
    },
  );
});
