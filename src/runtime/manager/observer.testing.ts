// Test helper: settled Widgets in a fake store, the service's copies, and an IndexObserver over them.
import pino from "pino";
import * as z from "zod";
import type { ManagedKind } from "../sdk/index.ts";
import { managedSpec } from "../sdk/index.ts";
import { FakeKube } from "../testing/index.ts";
import { IndexObserver, Observations } from "./observer.ts";

export type Obs = { href: string; size: number };

/** `n` Ready Widgets in sync with the service, spread over `namespaces` (an Account each). */
export function widgetsInSync(n: number, namespaces = 1) {
  const kube = new FakeKube();
  const service = new Map<string, Obs>();
  const calls: string[] = [];
  const kind: ManagedKind<{ size: number; accountRef: { name: string } }, unknown, Obs, unknown> = {
    kind: "Widget",
    plural: "widgets",
    singular: "widget",
    shortNames: [],
    description: "",
    schema: managedSpec({ size: z.number() }) as never,
    references: () => [],
    desired: () => ({}),
    observe: async () => undefined,
    lookup: async () => [],
    hrefOf: (o) => o.href,
    create: async () => "",
    update: async () => {},
    delete: async () => {},
    diff: () => [],
    atProvider: (o) => ({ size: o.size }),
    index: {
      scope: () => "",
      list: async () => {
        calls.push("index");
        return [...service.values()];
      },
    },
  };
  for (let i = 0; i < n; i++) {
    const href = `/api/widgets/${i}`;
    service.set(href, { href, size: 1 });
    const o = kube.put("Widget", {
      metadata: { name: `w${i}`, namespace: `ns${i % namespaces}` },
      spec: { size: 1 },
    });
    o.status = {
      href,
      atProvider: { size: 1 },
      observedGeneration: o.metadata.generation,
      conditions: [
        { type: "Ready", status: "True", reason: "Available", message: "", lastTransitionTime: "" },
      ],
    };
  }
  const queued: string[] = [];
  /** Namespaces whose Account has no client. */
  const notReady = new Set<string>();
  const observations = new Observations(() => 0);
  const observer = new IndexObserver({
    kinds: [kind as never],
    store: kube,
    accounts: {
      get: (namespace: string) => (notReady.has(namespace) ? { notReady: "not checked" } : { client: {} }),
    },
    observations,
    enqueue: (k) => queued.push(k),
    log: pino({ level: "silent" }),
  });
  return { kind, kube, service, calls, queued, observer, observations, notReady };
}
