import { BaseSequencer, type TestSpecification } from "vitest/node";

// Vitest's sequencer, with the files that take longest started first. Without a cache of earlier
// durations (a fresh clone, CI) Vitest orders files by size, and a small file that waits long
// (a 30 s resync interval, the misconfiguration cases) then ran last, one worker idle beside it.

/** The slowest files (a path's end), longest first, as `npm test` measured them. */
const SLOWEST = [
  "test/misconfig/misconfig.test.ts",
  "test/operator/annotations.test.ts",
  "test/operator/delete-all.test.ts",
  "test/docs/commands.test.ts",
  "test/deploy/dockerfile.test.ts",
  "test/dev/dev.test.ts",
  "test/proof/chaos.test.ts",
];

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((end) => f.moduleId.endsWith(end));
      return i === -1 ? SLOWEST.length : i;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
