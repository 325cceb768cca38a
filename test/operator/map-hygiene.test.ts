// Issue 16 item 3, in the suite: the soak's churn at a small scale, then every per-object map of
// the runtime (footprint.ts) must hold only objects that still exist. Deterministic where the
// 15-minute soak is statistical: a map that keeps a deleted object's entry fails it, however
// small the entry. (`npm run soak` measures the memory itself.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleKeys } from "../../src/lib/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { parseKey } from "../../src/runtime/sdk/index.ts";
import { mixedSet, SCRIPTS_CONFIG_MAP } from "../proof/mixed.ts";
import { Churn } from "../soak/churn.ts";
import { SOAK_FAULTS } from "../soak/soak.ts";
import {
  createCr,
  deleteCr,
  namespaceWithAccount,
  PLURALS,
  type Stack,
  setFaults,
  startOperator,
  startStack,
  waitFor,
  waitGone,
} from "./harness.ts";

let stack: Stack;
let operator: Operator;

beforeAll(async () => {
  stack = await startStack();
  operator = await startOperator(stack, { concurrency: "16", "api-rate": "10000" });
});
afterAll(() => stack?.close());

const exists = (key: string) => {
  const { kind, namespace, name } = parseKey(key);
  return operator.store.get(kind, namespace, name) !== undefined;
};

const isReady = (o: { status?: { conditions?: { type: string; status: string }[] } }) =>
  o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;

describe("per-object maps under churn", () => {
  it("hold no entry of a deleted object once the churn settles", async () => {
    const ns = await namespaceWithAccount(stack, { name: "hygiene" });
    // A second namespace that goes whole, Account included: the per-Account maps must let go too.
    const other = await namespaceWithAccount(stack, { name: "hygiene-gone" });
    await createCr(stack, other, "Deployment", "web", { description: "goes" });
    const set = mixedSet(96, "h");
    await stack.core.createNamespacedConfigMap({ namespace: ns, body: SCRIPTS_CONFIG_MAP });
    for (const m of set) await createCr(stack, ns, m.kind, m.name, m.spec);
    const kinds = Object.keys(PLURALS);
    const all = () => kinds.flatMap((k) => operator.store.list(k));
    await waitFor(
      `${set.length + 3} resources Ready`,
      async () => all().filter(isReady).length >= set.length + 3,
      45_000,
    );

    // Churn under faults: whole units deleted and recreated, descriptions changed.
    await setFaults(stack, SOAK_FAULTS);
    const churn = new Churn({ custom: stack.custom, namespace: ns, set, perRound: 12, maxDeleting: 3 });
    const touched = { changed: 0, deleted: 0, recreated: 0 };
    for (let round = 0; round < 6; round++) {
      const r = await churn.next();
      touched.changed += r.changed;
      touched.deleted += r.deleted;
      touched.recreated += r.recreated;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    // One more unit deleted for good (the churn recreates the ones it deletes, in time).
    const last = set.filter((m) => m.name.startsWith("h11-"));
    // (It may be among the churn's deletions already: then it is gone, or going.)
    for (const m of last) await deleteCr(stack, ns, m.kind, m.name).catch(() => {});
    await deleteCr(stack, other, "Deployment", "web");
    await deleteCr(stack, other, "Account", "default");
    await setFaults(stack, {});
    expect(touched.deleted).toBeGreaterThan(0);
    expect(touched.changed).toBeGreaterThan(0);

    await waitGone(stack, other, "Account", "default", 45_000);
    await waitFor("the deleted units gone", () => churn.deletionsDone(), 45_000);
    for (const m of last) await waitGone(stack, ns, m.kind, m.name, 45_000);
    // Settled: what is still queued for a deleted key is reconciled (and let go) within moments.
    let stale: Record<string, string[]> = {};
    await waitFor(
      "no map holding a deleted object",
      async () => {
        stale = staleKeys(operator.footprint(), exists);
        return Object.keys(stale).length === 0;
      },
      20_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(stale).slice(0, 2000)}`);
    });

    // The maps are the real ones: they hold every live object.
    const footprint = operator.footprint();
    const live = all().length;
    expect(footprint["informers.cache"]!.entries).toBe(live);
    expect(footprint["owners.byKey"]!.entries).toBe(live - 1); // Accounts claim no href
    expect(footprint["accounts.entries"]!.entries).toBe(1);
    expect(footprint["accounts.tokenBuckets"]!.entries).toBe(1);
  }, 60_000);
});
