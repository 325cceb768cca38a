import { configDefaults, defineConfig } from "vitest/config";
import SlowFirst from "./test/support/slow-first.testing.ts";

/**
 * The end-to-end suites run a second time on a real kube-apiserver when the run has one
 * (KUBEBUILDER_ASSETS; README "Tests against a real control plane"): every kind's scenarios
 * (the files of each concern that cover them; the suite stays under 10 minutes on 2 cores),
 * ordering, the one-owner rule, the bad-input corpus's admission answers, the docs' commands. Their stacks read the
 * server from SVC_TEST_SERVER (test/operator/harness.ts).
 */
const ON_BOTH_SERVERS = [
  "test/kinds-table/{table-kinds,stored-script-attachments}.test.ts",
  "test/kinds-network/{kinds-networks-subnets-gateways,kinds-routes-adoption,stack,route-table-deletion}.test.ts",
  "test/kinds-storage/{permission,volume-attachments-sample,volume-lifecycle-drift}.test.ts",
  "test/operator/{deployment,one-owner,stalled-parent}.test.ts",
  "test/proof/corpus.test.ts",
  "test/docs/commands.test.ts",
];
/**
 * Files that measure their worker's heap: each runs in a process of its own, where no earlier
 * file's garbage is freed while it measures.
 */
const MEASURE_THEIR_HEAP = ["test/bench/audit-queue-bytes.test.ts", "test/api/bounded-responses.test.ts"];
const realServer = Boolean(process.env.KUBEBUILDER_ASSETS);
const TEST_ENV = { SVC_SIMULATOR_TOKEN: "test-simulator-hook-token", KUBEBUILDER_ASSETS: "" };

export default defineConfig({
  test: {
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Servers under test bind 127.0.0.1 on free ports; two workers match the 2-core machines.
    maxWorkers: 2,
    // The simulator's test-hook token, for simulators in this process and in child processes alike.
    // KUBEBUILDER_ASSETS is the global setup's (the path reaches tests by inject): emptied in the
    // workers, so a `svc-operator dev` a test starts runs on the devcluster unless told otherwise.
    env: TEST_ENV,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // The slowest files first, so none of them runs last with the other worker idle.
    sequence: { sequencer: SlowFirst },
    // A real kube-apiserver per worker for the whole run when KUBEBUILDER_ASSETS holds one.
    globalSetup: ["./test/support/control-plane-setup.testing.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "devcluster",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...MEASURE_THEIR_HEAP],
          // A worker imports the modules once for all its files (a third of the run's time was
          // imports, four fifths of the unit tests'): what a test file starts, it stops, and what
          // depends on the project is read when used, not kept from an import (test/operator/servers.ts).
          isolate: false,
        },
      },
      { extends: true, test: { name: "own-process", include: MEASURE_THEIR_HEAP } },
      ...(realServer
        ? [
            {
              extends: true,
              test: {
                name: "kube-apiserver",
                include: ON_BOTH_SERVERS,
                env: { ...TEST_ENV, SVC_TEST_SERVER: "kube-apiserver" },
              },
            },
          ]
        : []),
    ],
  },
});
