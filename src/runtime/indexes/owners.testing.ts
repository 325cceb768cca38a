import type { ManagedObject } from "../sdk/index.ts";
import { Annotation } from "../sdk/index.ts";
import { OwnerIndex } from "./owners.ts";

/** Test helpers of the one-owner index: custom resources as the informer delivers them. */

export const H = "/api/deployments/7";

/** A custom resource as the informer delivers it; `kind` defaults to Deployment. */
export interface Cr {
  kind?: string;
  ns: string;
  name: string;
  /** The href annotation. */
  href?: string;
  /** status.href */
  recorded?: string;
  replaces?: string;
  observeOnly?: boolean;
  account?: string;
  created?: string;
  deleting?: boolean;
}

export function object(c: Cr): ManagedObject {
  const annotations: Record<string, string> = {};
  if (c.href) annotations[Annotation.href] = c.href;
  return {
    metadata: {
      namespace: c.ns,
      name: c.name,
      annotations,
      creationTimestamp: c.created ?? "2026-01-01T00:00:00Z",
      deletionTimestamp: c.deleting ? "2026-01-02T00:00:00Z" : undefined,
    },
    spec: {
      ...(c.observeOnly ? { managementPolicy: "ObserveOnly" } : {}),
      ...(c.account ? { accountRef: { name: c.account } } : {}),
    },
    status: {
      ...(c.recorded ? { href: c.recorded } : {}),
      ...(c.replaces ? { replaces: c.replaces } : {}),
    },
  };
}

/** accountId per namespace/Account name; absent means the Account is not in the cache. */
const ACCOUNT_IDS: Record<string, string> = {
  "demo/default": "1",
  "teamb/default": "1",
  "teamc/default": "2",
  "teamb/other": "2",
};

export function index(crs: Cr[]): OwnerIndex {
  const owners = new OwnerIndex((ns, name) => ACCOUNT_IDS[`${ns}/${name}`]);
  for (const c of crs) owners.set(c.kind ?? "Deployment", object(c));
  return owners;
}

export const demo: Cr = { ns: "demo", name: "web", href: H, recorded: H, created: "2026-01-01T10:00:00Z" };
