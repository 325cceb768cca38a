import { afterAll, beforeEach } from "vitest";
import { type Harness, startSimulator } from "./harness.ts";

/** Starts this file's simulator, stopped after the file, with the seed reloaded before each test. */
export async function startSimulatorResetEach(): Promise<Harness> {
  const h = await startSimulator();
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.hook("reset");
  });
  return h;
}
