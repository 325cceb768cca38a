import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Servers under test bind 127.0.0.1 on free ports; two workers match the 2-core machines.
    maxWorkers: 2,
    // The simulator's test-hook token, for simulators in this process and in child processes alike.
    env: { SVC_SIMULATOR_TOKEN: "test-simulator-hook-token" },
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // A real kube-apiserver for the run when KUBEBUILDER_ASSETS holds one (README).
    globalSetup: ["./test/support/control-plane-setup.testing.ts"],
  },
});
