// Runs every bench/<area>.ts (or those named on the command line), each exporting
// `run(): Promise<Record<string, unknown>>`, and writes the figures to bench/results/.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

type Figures = Record<string, unknown>;
interface BenchModule {
  run(): Promise<Figures>;
}

const here = dirname(fileURLToPath(import.meta.url));

async function benchFiles(only: string[]): Promise<string[]> {
  const names = (await readdir(here)).filter(
    (f) => f.endsWith(".ts") && f !== "run.ts" && !f.endsWith(".test.ts"),
  );
  const areas = names.map((f) => basename(f, ".ts")).sort();
  const unknown = only.filter((o) => !areas.includes(o));
  if (unknown.length > 0)
    throw new Error(`unknown bench area(s): ${unknown.join(", ")}; known: ${areas.join(", ")}`);
  return only.length > 0 ? only : areas;
}

function markdown(results: Record<string, Figures | { error: string }>): string {
  const lines = ["| area | figure | value |", "|---|---|---|"];
  for (const [area, figures] of Object.entries(results)) {
    for (const [name, value] of Object.entries(figures)) {
      lines.push(
        `| ${area} | ${name} | ${typeof value === "object" ? JSON.stringify(value) : String(value)} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

async function main(): Promise<number> {
  const areas = await benchFiles(process.argv.slice(2));
  const results: Record<string, Figures | { error: string }> = {};
  let failed = 0;
  for (const area of areas) {
    process.stdout.write(`\n== bench ${area}\n`);
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
  const out = join(here, "results");
  await mkdir(out, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: (await import("node:os")).cpus().length,
  };
  await writeFile(join(out, "latest.json"), `${JSON.stringify({ meta, results }, null, 2)}\n`);
  const table = markdown(results);
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
