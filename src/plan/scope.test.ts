import { describe, expect, it } from "vitest";
import type { ManagedObject } from "../runtime/sdk/index.ts";
import { accountScope } from "./scope.ts";

const account = (namespace: string, name: string, accountId: number): ManagedObject => ({
  metadata: { namespace, name },
  spec: { accountId },
});

/** The cluster's Accounts: team-a's and demo's reach account 1, elsewhere's account 2. */
const cluster = new Map([
  ["team-a/default", account("team-a", "default", 1)],
  ["demo/default", account("demo", "default", 1)],
  ["elsewhere/default", account("elsewhere", "default", 2)],
]);
const live = { get: (_kind: string, namespace: string, name: string) => cluster.get(`${namespace}/${name}`) };

describe("the service account an Account reaches, as plan compares hrefs", () => {
  it("is the cluster's Account, unless the manifests give it; unknown when neither holds it", () => {
    const scope = accountScope({
      live,
      manifests: new Map([["team-a/default", { spec: { accountId: 7 } }]]),
    });
    expect(scope("team-a", "default")).toBe("7");
    expect(scope("demo", "default")).toBe("1");
    expect(scope("elsewhere", "default")).toBe("2");
    expect(scope("nowhere", "default")).toBeUndefined();
  });

  it("with --endpoint, is the account given for the manifests' namespaces, and the cluster's elsewhere", () => {
    const scope = accountScope({
      live,
      manifests: new Map(),
      fixed: { accountId: 2, namespaces: new Set(["team-a"]) },
    });
    expect(scope("team-a", "default")).toBe("2");
    expect(scope("demo", "default")).toBe("1");
  });
});
