import { beforeAll } from "vitest";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { namespaceWithAccount, type Stack, waitForCondition } from "../operator/harness.ts";
import { operatorStack, type SentWrite, simRows } from "./helpers.ts";

// What the volume-*.test.ts files share: the file's stack and storage operator, the simulator's
// rows they read, and the volume they apply.

export let stack: Stack;
export let operator: Operator;
/** Every write the operator sent. */
export let sent: SentWrite[];

/** Starts this file's stack and storage operator (see operatorStack), closed after the file. */
export function useStorageStack(): void {
  const t = operatorStack();
  sent = t.sent;
  beforeAll(() => {
    stack = t.stack;
    operator = t.operator;
  });
}

export interface SimVolume {
  id: string;
  name: string;
  size: number;
  volume_type_href: string | null;
  deployment_href: string | null;
  allowed_instance_hrefs: string[];
}
export interface SimAttachment {
  id: string;
  device: string;
  storage_href: string;
  runnable_href: string;
  settings: Record<string, string> | null;
}

export const volumeById = (href: string) =>
  simRows<SimVolume>(stack, "volumes").find((v) => `/api/clouds/1/volumes/${v.id}` === href);
export const attachments = (storageHref: string) =>
  simRows<SimAttachment>(stack, "recurring_volume_attachments").filter((a) => a.storage_href === storageHref);

export async function readyNamespace(): Promise<string> {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

export const VOLUME = { cloudHref: "/api/clouds/1", datacenterHref: "/api/clouds/1/datacenters/1", size: 10 };
export const I = (n: number) => `/api/clouds/1/instances/${n}`;
