// The API client's cost per call, against the in-process simulator with zero latency:
// the client vs a bare undici request loop in the same run, same dispatcher settings,
// same request (GET a deployment with a Bearer token) and the same work after it (the
// body parsed as JSON; the typed variant also validates it with zod).
//
// The machine is shared (2 cores, other work running), so throughput rounds swing by
// tens of percent between identical loops. The headline figure therefore interleaves
// single calls (bare, client.call, typed, bare, ...) and compares median latencies: a
// busy neighbour hits all variants alike and the median ignores preemption spikes.
// Throughput with 8 concurrent callers and the client's own CPU per call (network taken
// out) are printed as well. Goal: the client costs at most 15% more per call.
import { pathToFileURL } from "node:url";
import { Agent } from "undici";
import { ApiClient } from "../src/api/client.ts";
import { serviceApi } from "../src/api/index.ts";
import { createSimulator } from "../src/simulator/server.ts";
import { median } from "./lib/median-run.ts";

const HREF = "/api/deployments/1";
const INTERLEAVED_CALLS = 5000;
const THROUGHPUT_ROUNDS = 15;
const THROUGHPUT_CALLS = 400;
const CONCURRENCY = 8;
const GOAL_PCT = 15;

type Variant = () => Promise<unknown>;
type Name = "bare" | "call" | "typed";
const NAMES: Name[] = ["bare", "call", "typed"];

const pct = (ratio: number) => Number(((ratio - 1) * 100).toFixed(1));

/** Median latency (us) of each variant, calls interleaved one by one. */
async function interleavedLatency(variants: Record<Name, Variant>): Promise<Record<Name, number>> {
  const samples: Record<Name, number[]> = { bare: [], call: [], typed: [] };
  for (let i = 0; i < INTERLEAVED_CALLS; i++) {
    for (let k = 0; k < NAMES.length; k++) {
      const name = NAMES[(i + k) % NAMES.length]!;
      const t0 = performance.now();
      await variants[name]();
      samples[name].push((performance.now() - t0) * 1000);
    }
  }
  return { bare: median(samples.bare), call: median(samples.call), typed: median(samples.typed) };
}

/** Calls/s with CONCURRENCY callers, rounds rotating the variants; median per variant. */
async function throughput(variants: Record<Name, Variant>): Promise<Record<Name, number>> {
  const rates: Record<Name, number[]> = { bare: [], call: [], typed: [] };
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    for (let k = 0; k < NAMES.length; k++) {
      const name = NAMES[(round + k) % NAMES.length]!;
      let next = 0;
      const worker = async () => {
        while (next++ < THROUGHPUT_CALLS) await variants[name]();
      };
      const t0 = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      rates[name].push(THROUGHPUT_CALLS / ((performance.now() - t0) / 1000));
    }
  }
  return { bare: median(rates.bare), call: median(rates.call), typed: median(rates.typed) };
}

/**
 * The client's own time per call with the network taken out: the same calls through a
 * dispatcher that answers at once with the simulator's body (best of interleaved rounds:
 * JIT warm-up and GC pauses only ever add time).
 */
async function ownCostUs(body: string): Promise<{ call: number; typed: number }> {
  const token = JSON.stringify({ access_token: "a", expires_in: 7200, token_type: "bearer" });
  const instant = {
    request: async (o: { path: string }) => {
      const text = o.path.startsWith("/api/oauth2") ? token : body;
      // A Content-Length, as the simulator sends: the client reads such a body at once.
      return {
        statusCode: 200,
        headers: { "content-length": String(Buffer.byteLength(text)) },
        body: { text: async () => text },
      };
    },
    close: async () => {},
  };
  const client = new ApiClient({
    endpoint: "http://127.0.0.1:1",
    accountId: 1,
    auth: { type: "oauth", refreshToken: "r" },
    dispatcher: instant as never,
    rateLimit: { ratePerSecond: 1e9, burst: 1e9 },
  });
  const api = serviceApi(client);
  const variants: Record<Name, Variant> = {
    bare: async () => JSON.parse(await (await instant.request({ path: HREF })).body.text()),
    call: async () => JSON.parse((await client.call({ method: "GET", path: HREF })).body),
    typed: () => api.deployments.show(HREF),
  };
  const n = 20_000;
  const best: Record<Name, number> = { bare: Infinity, call: Infinity, typed: Infinity };
  for (let round = 0; round < 5; round++) {
    for (const name of NAMES) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await variants[name]();
      best[name] = Math.min(best[name], ((performance.now() - t0) * 1000) / n);
    }
  }
  return { call: Math.max(0, best.call - best.bare), typed: Math.max(0, best.typed - best.bare) };
}

export async function run(): Promise<Record<string, unknown>> {
  const sim = await createSimulator({ port: 0, regionPort: 0 });
  const bareAgent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  const clientAgent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  const client = new ApiClient({
    endpoint: sim.url,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "dev-refresh-token" },
    dispatcher: clientAgent,
    // Limiter on (its cost is part of every call) but far above the load.
    rateLimit: { ratePerSecond: 1e9, burst: 1e9 },
  });
  const api = serviceApi(client);
  try {
    // The bare loop uses a token of its own, obtained the same way.
    const grant = await bareAgent.request({
      origin: sim.url,
      path: "/api/oauth2/",
      method: "POST",
      headers: { "x-api-version": "1.5", "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&refresh_token=dev-refresh-token",
    });
    const token = ((await grant.body.json()) as { access_token: string }).access_token;
    const headers = {
      "x-api-version": "1.5",
      "x-account": "1",
      accept: "application/json",
      authorization: `Bearer ${token}`,
    };
    const variants: Record<Name, Variant> = {
      bare: async () => {
        const res = await bareAgent.request({ origin: sim.url, path: HREF, method: "GET", headers });
        if (res.statusCode !== 200) throw new Error(`bare loop got ${res.statusCode}`);
        return JSON.parse(await res.body.text());
      },
      call: async () => JSON.parse((await client.call({ method: "GET", path: HREF })).body),
      typed: () => api.deployments.show(HREF),
    };
    for (const name of NAMES) for (let i = 0; i < 500; i++) await variants[name]();

    const latency = await interleavedLatency(variants);
    const rates = await throughput(variants);
    const own = await ownCostUs((await client.call({ method: "GET", path: HREF })).body);
    const figures = {
      bare_undici_calls_per_s: Math.round(1e6 / latency.bare),
      client_call_calls_per_s: Math.round(1e6 / latency.call),
      client_typed_show_calls_per_s: Math.round(1e6 / latency.typed),
      bare_undici_median_us: Number(latency.bare.toFixed(1)),
      client_call_median_us: Number(latency.call.toFixed(1)),
      client_typed_show_median_us: Number(latency.typed.toFixed(1)),
      client_call_extra_per_call_pct: pct(latency.call / latency.bare),
      client_typed_show_extra_per_call_pct: pct(latency.typed / latency.bare),
      concurrent8_bare_calls_per_s: Math.round(rates.bare),
      concurrent8_client_call_calls_per_s: Math.round(rates.call),
      concurrent8_client_typed_show_calls_per_s: Math.round(rates.typed),
      client_call_own_us_per_call: Number(own.call.toFixed(2)),
      client_typed_show_own_us_per_call: Number(own.typed.toFixed(2)),
      goal_pct: GOAL_PCT,
      goal_met: pct(latency.typed / latency.bare) <= GOAL_PCT,
    };
    const f = figures;
    console.log(
      [
        `sequential, interleaved (median of ${INTERLEAVED_CALLS} calls each):`,
        `  bare undici loop        ${f.bare_undici_calls_per_s} calls/s  (${f.bare_undici_median_us} us/call)`,
        `  client.call + JSON      ${f.client_call_calls_per_s} calls/s  (${f.client_call_median_us} us/call, +${f.client_call_extra_per_call_pct}%)`,
        `  typed show (JSON + zod) ${f.client_typed_show_calls_per_s} calls/s  (${f.client_typed_show_median_us} us/call, +${f.client_typed_show_extra_per_call_pct}%)`,
        `${CONCURRENCY} concurrent callers (median of ${THROUGHPUT_ROUNDS} rounds, noisy on a shared machine):`,
        `  bare ${f.concurrent8_bare_calls_per_s} calls/s, client.call ${f.concurrent8_client_call_calls_per_s} calls/s, typed show ${f.concurrent8_client_typed_show_calls_per_s} calls/s`,
        `client's own time per call, network taken out: client.call ${f.client_call_own_us_per_call} us, typed show ${f.client_typed_show_own_us_per_call} us`,
        `goal: at most +${GOAL_PCT}% per call -> ${f.goal_met ? "met" : "NOT met"}`,
      ].join("\n"),
    );
    return figures;
  } finally {
    await client.close();
    await clientAgent.close();
    await bareAgent.close();
    await sim.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run();
}
