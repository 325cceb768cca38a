import { afterAll, beforeAll } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { type Stack, startOperator, startStack } from "../operator/harness.ts";
import {
  apply,
  type Manifest,
  readyNamespace as readyNamespaceOf,
  serviceApi,
  waitReady,
} from "./helpers.ts";

// The stack of the kinds-*.test.ts files: devcluster, simulator and one operator, started and
// stopped once per file.

export let stack: Stack;
export let operator: Operator;
export let api: ServiceApi;

export function useOperatorStack(): void {
  beforeAll(async () => {
    stack = await startStack();
    operator = await startOperator(stack);
    api = serviceApi(stack);
  });
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });
}

/** A fresh namespace whose Account `default` is Ready. */
export const readyNamespace = (): Promise<string> => readyNamespaceOf(stack);

export const NETWORK: Manifest = {
  kind: "Network",
  name: "main",
  spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16" },
};

/** A namespace with a Ready network `main`; returns its href. */
export async function withNetwork(): Promise<{ ns: string; networkHref: string; table: string }> {
  const ns = await readyNamespace();
  await apply(stack, ns, NETWORK);
  const n = await waitReady(stack, ns, "Network", "main");
  return { ns, networkHref: n.status!.href!, table: n.status!.atProvider!.defaultRouteTableHref as string };
}
