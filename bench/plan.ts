// Issue 14: the cost of `svc-operator plan` against the live service. For each size N (default
// 10, 100 and 1,000; BENCH_PLAN_SIZES) N sets of objects of every kind are made in a simulator
// (test/export/brownfield.ts setOfEveryKind: 12 objects each, references between them), exported
// with --manage, and planned with --no-cluster (the ConfigMaps of the attachments' content among
// the manifests). Printed: manifests, the plan's API calls (the same at every size: index calls
// per kind and scope, never one per object), and its wall time.
import { pathToFileURL } from "node:url";
import { stringify } from "yaml";
import { createServiceApi } from "../src/api/index.ts";
import { parseManifests } from "../src/plan/manifests.ts";
import { createSimulator } from "../src/simulator/server.ts";
import { setOfEveryKind } from "../test/export/brownfield.ts";
import { cli, contentConfigMaps } from "../test/export/rig.ts";

const SIZES = (process.env.BENCH_PLAN_SIZES ?? "10,100,1000").split(",").map(Number);
const ENV = { SVC_REFRESH_TOKEN: "dev-refresh-token" };

export async function run(): Promise<Record<string, unknown>> {
  const sim = await createSimulator({ port: 0, regionPort: 0 });
  const api = createServiceApi({
    endpoint: sim.url,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "dev-refresh-token" },
    rateLimit: false,
  });
  const figures: Record<string, unknown> = {};
  try {
    let made = 0;
    for (const n of SIZES) {
      for (; made < n; made++) await setOfEveryKind(api, made);
      const args = ["export", "--endpoint", sim.url, "--account-id", "1", "--out", "-", "--manage"];
      const exported = await cli(args, ENV);
      if (exported.code !== 0) throw new Error(`export failed (${exported.code}): ${exported.err}`);
      const contents = await contentConfigMaps(api, parseManifests(exported.out, "export"));
      const text = [exported.out, ...contents.map((c) => stringify(c))].join("\n---\n");
      const started = performance.now();
      const r = await cli(
        ["plan", "-f", "-", "--no-cluster", "--endpoint", sim.url, "--account-id", "1", "-o", "json"],
        ENV,
        text,
      );
      const ms = Math.round(performance.now() - started);
      if (r.code !== 0) throw new Error(`plan of ${n} sets: exit ${r.code}: ${r.err}${r.out.slice(0, 2000)}`);
      const plan = JSON.parse(r.out) as { resources: unknown[]; apiCalls: number };
      figures[`sets=${n}`] = { manifests: plan.resources.length, apiCalls: plan.apiCalls, ms };
      process.stdout.write(
        `plan: ${n} sets, ${plan.resources.length} manifests: ${plan.apiCalls} API calls, ${ms} ms\n`,
      );
    }
    const calls = Object.values(figures).map((f) => (f as { apiCalls: number }).apiCalls);
    figures.apiCallsConstant = calls.every((c) => c === calls[0]);
    return figures;
  } finally {
    await api.close();
    await sim.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run();
}
