// Issue 16 item 4: `--allowed-endpoints` through the whole operator. The simulator's two hosts
// stand for two regional hosts: 127.0.0.1:<region port> answers every call with a redirect to
// 127.0.0.1:<port>, the account's host. With only the region host allowed, an Account pointing at
// the account's host is refused before its Secret is read, and one pointing at the region host is
// refused at the redirect: in both cases not one request reaches the account's host.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import {
  condition,
  createCr,
  namespaceWithAccount,
  type Stack,
  simStats,
  startOperator,
  startStack,
  stopOperator,
  waitForCondition,
} from "./harness.ts";

let stack: Stack;
let operator: Operator | undefined;
const port = (url: string) => new URL(url).port;
/** Requests the account's host (the simulator's primary port) has answered; the region host's are not counted. */
const primaryRequests = async () => (await simStats(stack)).reduce((n, r) => n + r.count, 0);

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

describe("--allowed-endpoints", () => {
  it("an Account outside the list is EndpointNotAllowed; its Secret is not read and nothing is sent", async () => {
    operator = await startOperator(stack, { "allowed-endpoints": `127.0.0.1:${port(stack.sim.regionUrl)}` });
    const before = await primaryRequests();
    // No Secret at all: a refusal after reading it would say SecretNotFound.
    const ns = await namespaceWithAccount(stack, {
      account: { oauth: { refreshTokenSecretRef: { name: "absent", key: "refreshToken" } } },
    });
    const account = await waitForCondition(
      stack,
      ns,
      "Account",
      "default",
      "Stalled",
      "True",
      "EndpointNotAllowed",
    );
    expect(condition(account, "Ready")).toMatchObject({ status: "False", reason: "EndpointNotAllowed" });
    expect(condition(account, "Ready")?.message).toBe(
      `spec.endpoint: host 127.0.0.1:${port(stack.sim.url)} is outside the operator's --allowed-endpoints ` +
        `(127.0.0.1:${port(stack.sim.regionUrl)}); nothing is sent there and the Secret is not read. ` +
        "Point spec.endpoint at an allowed host, or ask the operator's administrator to allow it",
    );
    // Its resources wait for it, quoting why.
    await createCr(stack, ns, "Deployment", "web", { description: "waits" });
    const web = await waitForCondition(
      stack,
      ns,
      "Deployment",
      "web",
      "Ready",
      "False",
      "DependencyNotReady",
    );
    expect(condition(web, "Ready")?.message).toContain("is outside the operator's --allowed-endpoints");
    expect(await primaryRequests()).toBe(before);
  });

  it("a redirect to a host outside the list is refused: the grant never reaches it", async () => {
    const before = await primaryRequests();
    const ns = await namespaceWithAccount(stack, { account: { endpoint: stack.sim.regionUrl } });
    const account = await waitForCondition(
      stack,
      ns,
      "Account",
      "default",
      "Stalled",
      "True",
      "EndpointNotAllowed",
    );
    expect(condition(account, "Ready")?.message).toContain(
      `redirect refused: host 127.0.0.1:${port(stack.sim.url)} is outside the operator's --allowed-endpoints`,
    );
    expect(await primaryRequests()).toBe(before);
    await stopOperator(stack, operator!);
  });

  it("with both hosts listed, the same redirect is followed and the Account is Ready", async () => {
    operator = await startOperator(stack, {
      "allowed-endpoints": `127.0.0.1:${port(stack.sim.regionUrl)},127.0.0.1:${port(stack.sim.url)}`,
    });
    const ns = await namespaceWithAccount(stack, { account: { endpoint: stack.sim.regionUrl } });
    const account = await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    expect(account.status?.host).toBe(stack.sim.url);
  });
});
