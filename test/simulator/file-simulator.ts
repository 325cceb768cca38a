import { afterAll, beforeEach } from "vitest";
import { type Harness, startSimulator } from "./harness.ts";

/** Starts this file's simulator, stopped after the file; `resetEach` reloads the seed before each test. */
export async function startFileSimulator({ resetEach = false } = {}): Promise<Harness> {
  const h = await startSimulator();
  afterAll(() => h.close());
  if (resetEach)
    beforeEach(async () => {
      await h.hook("reset");
    });
  return h;
}
