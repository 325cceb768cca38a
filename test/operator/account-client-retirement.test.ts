// An Account whose Secret changes gets a new service client; a reconcile that took the old one
// before the change is still calling with it (a call in flight on a slow service, then its next
// call). Over real HTTP (the simulator), with the Account kind's real client: those calls end
// normally (closing the old client at once failed them with undici's "client is destroyed", an
// outcome the operator cannot know), and the operator's shutdown closes the retired client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { accountKind } from "../../src/kinds/account/kind.ts";
import { AccountController } from "../../src/runtime/accounts/index.ts";
import { ReferenceIndex } from "../../src/runtime/indexes/index.ts";
import type { AccountKind } from "../../src/runtime/sdk/index.ts";
import { FakeClock, FakeKube, memoryLog } from "../../src/runtime/testing/index.ts";
import { SEED_CREDENTIALS } from "../../src/simulator/seed-data.ts";
import { type Harness, startSimulator } from "../simulator/harness.ts";

const NS = "team-a";
const WRONG_TOKEN = "a-refresh-token-the-service-refuses";

let h: Harness;
beforeAll(async () => {
  h = await startSimulator();
});
afterAll(async () => {
  await h?.close();
});

async function inFlight(): Promise<number> {
  return (await h.hooks.get("/__sim/stats")).json<{ inFlight: number }>().inFlight;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("an Account's Secret changes while a reconcile holds its client", () => {
  it("the old client's call in flight and its next call both succeed; shutdown closes it", async () => {
    const { log, text } = memoryLog("debug");
    const kube = new FakeKube();
    kube.secrets.set(`${NS}/creds`, { refreshToken: SEED_CREDENTIALS.refreshToken });
    kube.put("Account", {
      metadata: { name: "default", namespace: NS, generation: 1 },
      spec: { endpoint: h.url, accountId: 1, oauth: { refreshTokenSecretRef: { name: "creds" } } },
    });
    const clock = new FakeClock();
    const accounts = new AccountController(
      accountKind({ rateLimit: () => false, logger: log }) as AccountKind<unknown, unknown, unknown>,
      {
        store: kube,
        kube,
        refs: new ReferenceIndex(),
        events: { emit: () => {} },
        clock,
        log,
        resyncMs: 60_000,
      },
    );
    const ready = () =>
      kube.get("Account", NS, "default")?.status?.conditions?.find((c) => c.type === "Ready");
    try {
      expect(await accounts.reconcile(NS, "default")).toMatchObject({ outcome: "ready" });
      const found = accounts.get(NS, "default");
      if (!("client" in found)) throw new Error(`no client: ${found.notReady}`);
      const old = found.client as ServiceApi;

      // A reconcile holding the old client: one call answered slowly, then the next.
      await h.hook("faults", { latencyMs: 400 });
      const holding = (async () => {
        await old.deployments.index();
        return old.deployments.index();
      })();
      while ((await inFlight()) === 0) await new Promise((r) => setTimeout(r, 5));

      kube.secrets.set(`${NS}/creds`, { refreshToken: WRONG_TOKEN });
      await accounts.reconcile(NS, "default");
      expect(ready()).toMatchObject({ status: "False", reason: "CredentialsInvalid" });
      expect(accounts.get(NS, "default")).toMatchObject({ reason: "CredentialsInvalid" });

      expect(await rejection(holding)).toBeUndefined();
      await h.hook("faults", {});
      const all = text.join("");
      expect(all).not.toMatch(/destroyed|client is closed/i);
      expect(all.includes(SEED_CREDENTIALS.refreshToken), "a credential was logged").toBe(false);
      expect(all.includes(WRONG_TOKEN), "a credential was logged").toBe(false);

      // Shutdown closes the retired client: a call on it now fails, and no timer is left behind.
      expect(accounts.footprint()["accounts.retired"]?.entries).toBe(1);
      await accounts.close();
      expect(await rejection(old.deployments.index())).toBeInstanceOf(Error);
      expect(accounts.footprint()["accounts.retired"]?.entries).toBe(0);
      expect(clock.pending).toBe(0);
    } finally {
      await h.hook("faults", {});
      await accounts.close();
    }
  });
});
