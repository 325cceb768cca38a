import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { ECHO_CREDENTIALS as C, type EchoAt, type EchoServer, leaks, startEchoServer } from "../api/echo.ts";
import {
  createCr,
  getCr,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitFor,
  waitForConditionWith,
} from "./harness.ts";

/**
 * An Account whose endpoint echoes the request, credentials included, into its error answers
 * (a proxy, a WAF, a debug endpoint): the Account's and the managed resource's status, the
 * Events and the operator's log lines hold no rendering of a credential, for both kinds.
 */

const SECRETS = [C.refreshToken, C.email, C.password, C.accessToken, C.sessionCookie];
const OAUTH = { refreshToken: C.refreshToken };
const SESSION = { email: C.email, password: C.password };
const sessionAccount = { oauth: undefined, session: { secretRef: { name: "svc-credentials" } } };

let stack: Stack;
let operator: Operator;
const servers: EchoServer[] = [];

beforeAll(async () => {
  stack = await startStack();
  operator = await startOperator(stack);
});
afterAll(async () => {
  await stack?.close();
  for (const s of servers) await s.close();
});

async function echoing(at: EchoAt): Promise<EchoServer> {
  const server = await startEchoServer(at);
  servers.push(server);
  return server;
}

/** Every Event of the namespace once one carries a scrubbed echo, as JSON. */
async function eventsWithEcho(ns: string): Promise<string> {
  return waitFor(`an Event in ${ns} with the scrubbed echo`, async () => {
    const list = await stack.core.listNamespacedEvent({ namespace: ns });
    const text = JSON.stringify(list.items);
    return list.items.some((e) => e.message?.includes("[redacted]")) ? text : undefined;
  });
}

async function metrics(): Promise<string> {
  const address = operator.healthAddress!;
  return (await fetch(`http://${address.host}:${address.port}/metrics`)).text();
}

/** The echo server really sent the credential back (so the checks below can fail). */
function expectEchoed(server: EchoServer, value: string): void {
  expect(leaks(server.echoes.join("\n"), [value]).length).toBeGreaterThan(1);
}

function expectNoLeak(what: string, text: string): void {
  expect(leaks(text, SECRETS), what).toEqual([]);
}

describe("an endpoint that echoes the request into its errors", () => {
  it.each([
    {
      reason: "oauth: the token grant echoes the refresh token",
      at: "grant",
      secret: OAUTH,
      account: {},
      sent: C.refreshToken,
    },
    {
      reason: "session: the login echoes email and password",
      at: "login",
      secret: SESSION,
      account: sessionAccount,
      sent: C.password,
    },
  ] as const)(
    "$reason: the Account's status, its Events and the logs hold none of it",
    async ({ at, secret, account, sent }) => {
      const server = await echoing(at);
      const ns = await namespaceWithAccount(stack, {
        secretData: secret,
        account: { endpoint: server.url, ...account },
      });
      const a = await waitForConditionWith(stack, ns, "Account", "default", "Ready", "False", {
        reason: "ApiError",
        message: /Bad request: POST .*\[redacted\]/,
      });
      expectEchoed(server, sent);
      expectNoLeak("Account", JSON.stringify(a));
      expectNoLeak("Events", await eventsWithEcho(ns));
      expectNoLeak("logs", stack.logs.join("\n"));
      expectNoLeak("metrics", await metrics());
    },
  );

  it.each([
    { reason: "oauth: calls echo the access token", secret: OAUTH, account: {}, sent: C.accessToken },
    {
      reason: "session: calls echo the session cookie",
      secret: SESSION,
      account: sessionAccount,
      sent: C.sessionCookie,
    },
  ] as const)(
    "$reason: the managed resource's status, its Events and the logs hold none of it",
    async ({ secret, account, sent }) => {
      const server = await echoing("call");
      const ns = await namespaceWithAccount(stack, {
        secretData: secret,
        account: { endpoint: server.url, ...account },
      });
      await waitForConditionWith(stack, ns, "Account", "default", "Ready", "True");
      await createCr(stack, ns, "Deployment", "web", { description: "echoed" });
      const d = await waitForConditionWith(stack, ns, "Deployment", "web", "Stalled", "True", {
        reason: "ApiError",
        message: /Bad request: .*\[redacted\]/,
      });
      expectEchoed(server, sent);
      expectNoLeak("Deployment", JSON.stringify(d));
      expectNoLeak("Account", JSON.stringify(await getCr(stack, ns, "Account", "default")));
      expectNoLeak("Events", await eventsWithEcho(ns));
      expectNoLeak("logs", stack.logs.join("\n"));
      expectNoLeak("metrics", await metrics());
    },
  );
});
