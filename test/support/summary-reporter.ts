import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with one plain `tests: N passed, N failed, N skipped` line, the closing line
 * CI tools read in any language (Vitest's own summary is coloured and differently shaped).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") count.passed++;
        else if (state === "failed") count.failed++;
        else count.skipped++;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) count.failed++;
    }
    process.stdout.write(
      `\ntests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`,
    );
  }
}
