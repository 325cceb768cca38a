import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { accountsResource } from "../../src/simulator/resources/accounts.ts";
import { cloudsResource } from "../../src/simulator/resources/clouds.ts";
import { deploymentsResource } from "../../src/simulator/resources/deployments.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import { inputsResource } from "../../src/simulator/resources/inputs.ts";
import { linkedResource } from "../../src/simulator/resources/linked.ts";
import { permissionsResource } from "../../src/simulator/resources/permissions.ts";
import { sessionsResource } from "../../src/simulator/resources/sessions.ts";
import { SimClient, startSimulator } from "./harness.ts";
import { OTHER_SAMPLES, SAMPLES, type Sample, templatesOf } from "./route-samples.ts";

// Every route of every resource module (route-samples.ts), with a sample path and the
// success it answers.

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

describe("SIM-CORE routes", () => {
  it("the sample table covers every route the SIM-CORE modules register", () => {
    const registered = templatesOf([
      accountsResource,
      sessionsResource,
      permissionsResource,
      deploymentsResource,
      cloudsResource,
      linkedResource,
      inputsResource,
    ]);
    expect(SAMPLES.map(([m, t]) => `${m} ${t}`).sort()).toEqual(registered);
  });

  it.each(SAMPLES)("%s %s answers its success with no suffix, .json and .xml", run);
});

describe("routes of every other resource module", () => {
  it("the sample table covers every route registered by every module", () => {
    expect([...SAMPLES, ...OTHER_SAMPLES].map(([m, t]) => `${m} ${t}`).sort()).toEqual(
      templatesOf(resources),
    );
  });

  it.each(OTHER_SAMPLES)("%s %s answers its success with no suffix, .json and .xml", run);
});

async function run(...[method, _t, pathOf, status, options, extra]: Sample): Promise<void> {
  const client =
    method === "POST" && typeof pathOf === "string" && /^\/api\/(session|oauth2)/.test(pathOf)
      ? new SimClient(h.url)
      : h.admin;
  // Signed download and graph URLs end in their signature: a suffix would be part of it.
  for (const suffix of extra?.raw ? [""] : ["", ".json", ".xml"]) {
    await h.hook("reset");
    // deployment 2 is seeded locked; deployment 1 holds servers
    if (method === "DELETE" && pathOf === "/api/deployments/2")
      await h.admin.post("/api/deployments/2/unlock");
    await extra?.setup?.(h);
    const path = typeof pathOf === "string" ? pathOf : await pathOf(h);
    const [bare, query] = path.split("?");
    const res = await client.request(method, `${bare}${suffix}${query ? `?${query}` : ""}`, options);
    expect(res.status, `${method} ${path}${suffix}: ${res.text}`).toBe(status);
    if (status === 200 && !extra?.raw && !path.startsWith("/api/oauth2")) {
      const type = res.headers.get("content-type")!;
      expect(type).toMatch(
        suffix === ".xml" ? /^application\/vnd\.svc\.\w+\+xml/ : /^application\/vnd\.svc\.\w+\+json/,
      );
      if (suffix === ".xml") expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      else JSON.parse(res.text);
    }
    if (status === 201) expect(res.headers.get("location")).toMatch(/^\/api\/[\w/-]+$/);
    if (status === 204) expect(res.text).toBe("");
  }
}
