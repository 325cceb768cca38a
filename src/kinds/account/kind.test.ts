import pino from "pino";
import { MockAgent } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EndpointAllowlist } from "../../api/index.ts";
import { AccountController } from "../../runtime/accounts/index.ts";
import { ReferenceIndex } from "../../runtime/indexes/index.ts";
import type { AccountKind } from "../../runtime/sdk/index.ts";
import { FakeClock, FakeKube } from "../../runtime/testing/index.ts";
import { accountKind } from "./kind.ts";

const NS = "team-a";
let agent: MockAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

/** An Account controller over the real Account kind, with a service that answers nothing unplanned. */
function setup(endpoint: string, allowed: string | undefined, secret = true) {
  agent = new MockAgent();
  agent.disableNetConnect();
  const kube = new FakeKube();
  if (secret) kube.secrets.set(`${NS}/creds`, { refreshToken: "the-refresh-token" });
  kube.put("Account", {
    metadata: { name: "default", namespace: NS, generation: 1 },
    spec: { endpoint, accountId: 1, oauth: { refreshTokenSecretRef: { name: "creds" } } },
  });
  const readSecret = vi.spyOn(kube, "readSecret");
  const kind = accountKind({
    rateLimit: () => false,
    dispatcher: agent,
    retry: { maxAttempts: 1 },
    allowedEndpoints: allowed === undefined ? undefined : EndpointAllowlist.parse(allowed),
  });
  const accounts = new AccountController(kind as AccountKind<unknown, unknown, unknown>, {
    store: kube,
    kube,
    refs: new ReferenceIndex(),
    events: { emit: () => {} },
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
    resyncMs: 60_000,
  });
  const conditions = () =>
    Object.fromEntries(
      (kube.get("Account", NS, "default")?.status?.conditions ?? []).map((c) => [
        c.type,
        `${c.status} ${c.reason}`,
      ]),
    );
  const ready = () => kube.get("Account", NS, "default")?.status?.conditions?.find((c) => c.type === "Ready");
  return { kube, readSecret, accounts, conditions, ready, agent };
}

describe("Account kind and --allowed-endpoints", () => {
  it.each([
    {
      reason: "an endpoint outside the list: refused before the Secret is read (there is none to read)",
      endpoint: "https://us-3.elsewhere.net",
      allowed: "*.example-cloud.com",
      ready: "False EndpointNotAllowed",
      secretRead: false,
    },
    {
      reason: "an endpoint on another port of an allowed host",
      endpoint: "https://us-3.example-cloud.com:8443",
      allowed: "us-3.example-cloud.com:443",
      ready: "False EndpointNotAllowed",
      secretRead: false,
    },
    {
      reason: "an allowed endpoint goes on to the Secret (missing here)",
      endpoint: "https://us-3.example-cloud.com",
      allowed: "*.example-cloud.com",
      ready: "False SecretNotFound",
      secretRead: true,
    },
    {
      reason: "no list (development): any endpoint",
      endpoint: "https://us-3.elsewhere.net",
      allowed: undefined,
      ready: "False SecretNotFound",
      secretRead: true,
    },
  ])("$reason", async ({ endpoint, allowed, ready, secretRead }) => {
    const s = setup(endpoint, allowed, false);
    const result = await s.accounts.reconcile(NS, "default");
    expect(s.conditions().Ready).toBe(ready);
    expect(s.readSecret).toHaveBeenCalledTimes(secretRead ? 1 : 0);
    if (ready === "False EndpointNotAllowed") {
      // Only the endpoint or the flag can change it: Stalled, not retried.
      expect(s.conditions().Stalled).toBe("True EndpointNotAllowed");
      expect(result).toMatchObject({ outcome: "terminal" });
      expect(result.retry).toBeFalsy();
      expect(s.ready()?.message).toContain(`spec.endpoint: host ${new URL(endpoint).hostname}:`);
      expect(s.ready()?.message).toContain(`is outside the operator's --allowed-endpoints (${allowed})`);
      expect(s.accounts.get(NS, "default")).toMatchObject({ notReady: expect.stringContaining(allowed!) });
    }
  });

  it("a redirect outside the list: EndpointNotAllowed, the token never sent there", async () => {
    const s = setup("https://us-3.example-cloud.com", "us-3.example-cloud.com");
    s.agent
      .get("https://us-3.example-cloud.com")
      .intercept({ path: "/api/oauth2/", method: "POST" })
      .reply(302, "", { headers: { location: "https://us-4.example-cloud.com/api/oauth2/" } });
    // Nothing intercepts us-4: with net connect disabled, a request there would fail another way.
    await s.accounts.reconcile(NS, "default");
    expect(s.conditions()).toMatchObject({
      Ready: "False EndpointNotAllowed",
      Stalled: "True EndpointNotAllowed",
    });
    expect(s.ready()?.message).toContain(
      "redirect refused: host us-4.example-cloud.com:443 is outside the operator's --allowed-endpoints (us-3.example-cloud.com)",
    );
    expect(s.ready()?.message).not.toContain("the-refresh-token");
    s.agent.assertNoPendingInterceptors();
  });
});
