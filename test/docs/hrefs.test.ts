import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { playgroundSeed } from "../../src/dev/seed.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import { startSimulator } from "../simulator/harness.ts";
import { outputBlocks, shellBlocks } from "./markdown.ts";
import { PAGES } from "./pages.ts";
import { ROOT } from "./playground.ts";

/**
 * The docs' sample outputs show no href that changes from run to run. The ids the service gives
 * what the samples create depend on the order it creates them in, which varies (they are made in
 * parallel), so those are written `<id>` (`output.ts` matches them by shape). A concrete href
 * must be one the playground's simulator holds from the start (it answers a GET of it), or one
 * the page's own commands name (a datacenter that does not exist, on purpose).
 */

const sim = await startSimulator({ seed: playgroundSeed(resources) });
afterAll(() => sim.close());

/** Every href of a text, without the punctuation that ends a sentence or a column around it. */
const hrefsIn = (text: string) =>
  [...text.matchAll(/\/api\/[^\s"'`),;]+/g)].map((m) => m[0].replace(/[.:]+$/, ""));

const documented = PAGES.flatMap(({ file, sections }) => {
  const markdown = readFileSync(join(ROOT, file), "utf8");
  const commands = shellBlocks(file, markdown)
    .flatMap((b) => b.commands.map((c) => c.text))
    .join("\n");
  return outputBlocks(markdown, sections).flatMap((block) =>
    block.text.split("\n").flatMap((line, i) =>
      hrefsIn(line)
        // By shape, or given by the reader: the same every run.
        .filter((href) => !href.includes("<") && /\d/.test(href) && !commands.includes(href))
        .map((href) => ({ where: `${file}:${block.line + 1 + i}`, href })),
    ),
  );
});

describe("the docs' sample outputs, against the playground's simulator as it starts", () => {
  it("find hrefs to check (the seeded ones they show)", () => {
    expect(documented.map((d) => d.href)).toContain("/api/clouds/1/datacenters/1");
  });

  it.each(documented.map((d) => [d.where, d.href]))("%s %s is there at every start", async (_where, href) => {
    const answer = await sim.admin.get(href!);
    expect(
      answer.status,
      `${href}: ${answer.text.slice(0, 200)}; write the id <id> if the service gives it`,
    ).toBe(200);
  });
});
