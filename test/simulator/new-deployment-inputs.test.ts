import { afterAll, describe, expect, it } from "vitest";
import { playgroundSeed } from "../../src/dev/seed.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import type { DeploymentRep } from "./deployments-helpers.ts";
import { startSimulator } from "./harness.ts";

/**
 * A deployment created through the API starts with the inputs of the server templates the seed
 * marks `for_new_deployments` (the stand-in for its servers' templates), and none otherwise.
 */
const plain = await startSimulator();
const playground = await startSimulator({ seed: playgroundSeed(resources) });
afterAll(async () => {
  await plain.close();
  await playground.close();
});

async function create(h: typeof plain, name: string): Promise<DeploymentRep> {
  const created = await h.admin.post("/api/deployments", { form: { deployment: { name } } });
  expect(created.status).toBe(201);
  const href = created.headers.get("location")!;
  return (await h.admin.get(href, { query: { view: "inputs_2_0" } })).json<DeploymentRep>();
}

describe("the inputs of a new deployment", () => {
  it("the default seed marks no template: a new deployment has none, and multi_update ignores every name", async () => {
    expect((await create(plain, "web")).inputs).toEqual([]);
  });

  it("the playground's seed marks Base Linux: its inputs, with its values, which multi_update then sets", async () => {
    const web = await create(playground, "web");
    expect(web.inputs).toEqual([
      { name: "APP_ENV", value: "text:development" },
      { name: "NTP_SERVERS", value: 'array:["text:0.pool.ntp.org","text:1.pool.ntp.org"]' },
      { name: "SYSLOG_HOST", value: "blank" },
    ]);
    const href = web.links.find((l) => l.rel === "self")!.href;
    const update = await playground.admin.put(`${href}/inputs/multi_update`, {
      json: { inputs: { APP_ENV: "text:demo", NOT_THERE: "text:x" } },
    });
    expect(update.status).toBe(204);
    const after = (await playground.admin.get(`${href}/inputs`, { query: { view: "inputs_2_0" } })).json<
      { name: string; value: string }[]
    >();
    expect(after.map((i) => `${i.name}=${i.value}`)).toEqual([
      "APP_ENV=text:demo",
      'NTP_SERVERS=array:["text:0.pool.ntp.org","text:1.pool.ntp.org"]',
      "SYSLOG_HOST=blank",
    ]);
    // The template itself is unchanged: the deployment holds copies.
    const template = (
      await playground.admin.get("/api/server_templates/1", { query: { view: "inputs_2_0" } })
    ).json<{ inputs: { name: string; value: string }[] }>();
    expect(template.inputs[0]).toEqual({ name: "APP_ENV", value: "text:development" });
  });
});
