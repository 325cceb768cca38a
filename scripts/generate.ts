// `npm run generate`: writes crds/<kind>.yaml and docs/crds.md from every kind's zod schemas.
import { join } from "node:path";
import { crdSources } from "../src/kinds/index.ts";
import { writeAll } from "../src/runtime/crd/index.ts";

const written = await writeAll(join(import.meta.dirname, ".."), crdSources());
process.stdout.write(
  written.length === 0 ? "crds/ and docs/crds.md are up to date\n" : `wrote ${written.join(", ")}\n`,
);
