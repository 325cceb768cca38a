// Runs every bench/<area>.ts (or those named on the command line), each exporting
// `run(): Promise<Record<string, unknown>>`, and writes the figures to bench/results/latest.json
// and latest.md (committed: the latest figures of each area, with when and under what load they
// were taken; an area not run this time keeps its last figures). The scale areas' figures are
// also shown as one table (bench/lib/scale-table.ts), sizes as columns.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { scaleRuns } from "./lib/scale-columns.ts";
import { scaleTable } from "./lib/scale-table.ts";

type Figures = Record<string, unknown>;
interface BenchModule {
  run(): Promise<Figures>;
}

const here = dirname(fileURLToPath(import.meta.url));

/** Areas run only when named: scale-50k takes half an hour. */
const ON_REQUEST = ["scale-50k"];

async function benchFiles(only: string[]): Promise<string[]> {
  const names = (await readdir(here)).filter(
    (f) => f.endsWith(".ts") && f !== "run.ts" && !f.endsWith(".test.ts"),
  );
  const areas = names.map((f) => basename(f, ".ts")).sort();
  const unknown = only.filter((o) => !areas.includes(o));
  if (unknown.length > 0)
    throw new Error(`unknown bench area(s): ${unknown.join(", ")}; known: ${areas.join(", ")}`);
  return only.length > 0 ? only : areas.filter((a) => !ON_REQUEST.includes(a));
}

/** When, on what and under what load each area's figures were taken. */
interface AreaMeta {
  date: string;
  node: string;
  cpus: number;
  cpuModel?: string;
  loadAverage1m: number;
}

interface Latest {
  areas: Record<string, AreaMeta>;
  results: Record<string, Figures | { error: string }>;
}

async function readLatest(file: string): Promise<Latest> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<Latest>;
    return { areas: parsed.areas ?? {}, results: parsed.results ?? {} };
  } catch {
    return { areas: {}, results: {} };
  }
}

function markdown({ areas, results }: Latest): string {
  const lines = [
    "# Latest bench figures",
    "",
    "Written by `npm run bench` (bench/run.ts); each area's figures are from its last run.",
    "",
    "| area | taken | node | cpus | load average (1 min) at its start |",
    "|---|---|---|---|---|",
    ...Object.entries(areas).map(
      ([area, m]) => `| ${area} | ${m.date} | ${m.node} | ${m.cpus} | ${m.loadAverage1m} |`,
    ),
    "",
    ...scaleSection({ areas, results }),
    "| area | figure | value |",
    "|---|---|---|",
  ];
  for (const [area, figures] of Object.entries(results)) {
    for (const [name, value] of Object.entries(figures)) {
      lines.push(
        `| ${area} | ${name} | ${typeof value === "object" ? JSON.stringify(value) : String(value)} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The scale areas' one table (bench/lib/scale-table.ts), when a scale area has figures. */
function scaleSection(latest: Latest): string[] {
  const runs = scaleRuns(latest);
  return runs.length === 0 ? [] : ["## Scale", "", scaleTable(runs), "## Every figure", ""];
}

async function main(): Promise<number> {
  const areas = await benchFiles(process.argv.slice(2));
  const out = join(here, "results");
  const latest = await readLatest(join(out, "latest.json"));
  const results = latest.results;
  let failed = 0;
  for (const area of areas) {
    process.stdout.write(`\n== bench ${area}\n`);
    latest.areas[area] = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      loadAverage1m: +loadavg()[0]!.toFixed(1),
    };
    const started = performance.now();
    try {
      const mod = (await import(pathToFileURL(join(here, `${area}.ts`)).href)) as BenchModule;
      results[area] = await mod.run();
    } catch (error) {
      failed++;
      results[area] = { error: error instanceof Error ? error.message : String(error) };
      process.stderr.write(`bench ${area} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
    process.stdout.write(`== ${area} took ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "latest.json"), `${JSON.stringify(latest, null, 2)}\n`);
  const table = markdown(latest);
  await writeFile(join(out, "latest.md"), table);
  process.stdout.write(`\n${table}\nwritten: bench/results/latest.json, bench/results/latest.md\n`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
