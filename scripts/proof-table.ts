// `node scripts/proof-table.ts`: writes the scale bench's one table (bench/lib/scale-table.ts),
// from the figures of the last `npm run bench -- scale` and `-- scale-50k` in
// bench/results/latest.json, into docs/proof.md between its markers.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { scaleRuns } from "../bench/lib/scale-columns.ts";
import { scaleTable, withTable } from "../bench/lib/scale-table.ts";

const ROOT = join(import.meta.dirname, "..");
const doc = join(ROOT, "docs", "proof.md");
const latest = JSON.parse(await readFile(join(ROOT, "bench", "results", "latest.json"), "utf8"));
const table = scaleTable(scaleRuns(latest));
await writeFile(doc, withTable(await readFile(doc, "utf8"), table));
process.stdout.write(`${table}\nwritten into docs/proof.md\n`);
