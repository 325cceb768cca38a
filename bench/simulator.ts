// Simulator throughput on loopback (issue 2 goals: ≥ 5,000 show requests/s; index with one
// filter over 10,000 objects under 20 ms median). The simulator runs in its own process (the
// CLI, as users run it) so the load generator does not steal its event loop; the client is
// undici with keep-alive connections.
//
//   npm exec -- node bench/simulator.ts        (or `npm run bench -- simulator`)
import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Pool } from "undici";
import { median } from "./lib/median-run.ts";

const CONNECTIONS = 4;
const SHOW_SECONDS = 5;
const OBJECTS = 10_000;
const INDEX_SAMPLES = 200;
const GOALS = { showPerSecond: 5000, indexMedianMs: 20 };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function startSimulator(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(root, "src/cli.ts"), "simulator", "--port", "0", "--region-port", "0", "--log-level", "silent"],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`simulator did not start: ${seen}`)), 20_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /service API 1\.5 at (http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}: ${seen}`)));
  });
  child.stdout!.resume();
  return { url, child };
}

interface Client {
  pool: Pool;
  headers: Record<string, string>;
}

async function login(url: string): Promise<Client> {
  const pool = new Pool(url, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  const res = await pool.request({
    method: "POST",
    path: "/api/session",
    headers: { "x-api-version": "1.5", "content-type": "application/x-www-form-urlencoded" },
    body: "email=admin%40example.com&password=password&account_href=%2Fapi%2Faccounts%2F1",
  });
  await res.body.dump();
  if (res.statusCode !== 204) throw new Error(`login answered ${res.statusCode}`);
  const setCookie = res.headers["set-cookie"];
  const cookies = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ""])
    .map((c) => c.split(";")[0])
    .join("; ");
  return { pool, headers: { "x-api-version": "1.5", cookie: cookies } };
}

async function call(client: Client, method: "GET" | "POST", path: string, body?: string): Promise<number> {
  const res = await client.pool.request({
    method,
    path,
    headers: body
      ? { ...client.headers, "content-type": "application/x-www-form-urlencoded" }
      : client.headers,
    body,
  });
  await res.body.dump();
  return res.statusCode;
}

/** Runs `next()` from `concurrency` loops until `stop()`; answers the count and the errors. */
async function drive(
  concurrency: number,
  stop: () => boolean,
  next: (i: number) => Promise<number>,
  expect: number,
) {
  let count = 0;
  let errors = 0;
  let issued = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop()) {
        const status = await next(issued++);
        if (status === expect) count++;
        else errors++;
      }
    }),
  );
  return { count, errors };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function run(): Promise<Record<string, unknown>> {
  const { url, child } = await startSimulator();
  const client = await login(url);
  try {
    // Warm-up (JIT, connections).
    await drive(
      CONNECTIONS * 2,
      (() => {
        const end = performance.now() + 1000;
        return () => performance.now() > end;
      })(),
      () => call(client, "GET", "/api/deployments/1"),
      200,
    );

    // 1. show throughput.
    const showEnd = performance.now() + SHOW_SECONDS * 1000;
    const showStarted = performance.now();
    const show = await drive(
      CONNECTIONS * 2,
      () => performance.now() > showEnd,
      () => call(client, "GET", "/api/deployments/1"),
      200,
    );
    const showPerSecond = show.count / ((performance.now() - showStarted) / 1000);

    // 2. create throughput, filling the store with 10,000 deployments for the index.
    const createStarted = performance.now();
    let made = 0;
    const create = await drive(
      CONNECTIONS * 2,
      () => made >= OBJECTS,
      (i) => {
        made++;
        const name = `bench-${String(i).padStart(5, "0")}`;
        return call(
          client,
          "POST",
          "/api/deployments",
          `deployment%5Bname%5D=${name}&deployment%5Bdescription%5D=bench+object`,
        );
      },
      201,
    );
    const createPerSecond = create.count / ((performance.now() - createStarted) / 1000);

    // 3. index with one filter over the 10,000 objects: latency of sequential calls.
    const latencies: number[] = [];
    let indexErrors = 0;
    for (let i = 0; i < INDEX_SAMPLES; i++) {
      const needle = `bench-0${String(i % 100).padStart(2, "0")}`; // matches 10 names (bench-0NN0..9)
      const started = performance.now();
      const status = await call(client, "GET", `/api/deployments?filter%5B%5D=name%3D%3D${needle}`);
      latencies.push(performance.now() - started);
      if (status !== 200) indexErrors++;
    }
    // The same index without a match (pure scan, no rendering) shows the scan cost alone.
    const scan: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await call(client, "GET", "/api/deployments?filter%5B%5D=name%3D%3Dno-such-name");
      scan.push(performance.now() - started);
    }

    const figures = {
      showRequestsPerSecond: Math.round(showPerSecond),
      showErrors: show.errors,
      showGoal: `>= ${GOALS.showPerSecond}/s: ${showPerSecond >= GOALS.showPerSecond ? "met" : "MISSED"}`,
      createsPerSecond: Math.round(createPerSecond),
      createErrors: create.errors,
      objectsIndexed: create.count,
      indexFilterMedianMs: round(median(latencies), 2),
      indexFilterP95Ms: round(percentile(latencies, 0.95), 2),
      indexNoMatchMedianMs: round(median(scan), 2),
      indexErrors,
      indexGoal: `< ${GOALS.indexMedianMs} ms median: ${median(latencies) < GOALS.indexMedianMs ? "met" : "MISSED"}`,
      connections: CONNECTIONS,
      // The machines are shared: a load far above the core count explains a low figure.
      loadAverage1m: round(loadavg()[0]!, 2),
      concurrency: CONNECTIONS * 2,
    };
    for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(24)} ${value}`);
    return figures;
  } finally {
    await client.pool.close();
    child.kill("SIGTERM");
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
