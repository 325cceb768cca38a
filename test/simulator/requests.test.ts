import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { SimClient, startSimulator } from "./harness.ts";

// Issue 2 item 5 on real resources (framework.test.ts checks the parsing on a test route).
const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

const LOGIN = "email=admin%40example.com&password=password&account_href=%2Fapi%2Faccounts%2F1";

describe("request parameters and headers on real routes", () => {
  it("query-string and body parameters are merged on a create", async () => {
    const res = await h.admin.post("/api/deployments", {
      query: { deployment: { description: "from the query" } },
      form: { deployment: { name: "merged" } },
    });
    expect(res.status, res.text).toBe(201);
    const made = (await h.admin.get(res.headers.get("location")!)).json<Record<string, unknown>>();
    expect([made.name, made.description]).toEqual(["merged", "from the query"]);
  });

  it("a PUT with its parameters only in the query string", async () => {
    const res = await h.admin.put("/api/deployments/1", { query: { deployment: { description: "q" } } });
    expect(res.status, res.text).toBe(204);
    expect((await h.admin.get("/api/deployments/1")).json<{ description: string }>().description).toBe("q");
  });

  it("JSON bodies with the same nesting as the bracket notation", async () => {
    const network = await h.admin.post("/api/networks", {
      json: { network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" } },
    });
    expect(network.status, network.text).toBe(201);
    const res = await h.admin.post("/api/routes", {
      json: {
        route: {
          route_table_href: "/api/route_tables/1",
          destination_cidr_block: "10.1.0.0/16",
          next_hop_type: "ip_string",
          next_hop_ip: "10.0.0.1",
          cloud_specific_attributes: { instance_tags: ["a", "b"], priority: 3 },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    const route = (await h.admin.get(res.headers.get("location")!)).json<Record<string, unknown>>();
    expect(route.cloud_specific_attributes).toEqual({ instance_tags: ["a", "b"], priority: 3 });
  });

  it("Content-Type: application/json on a GET or DELETE without a body is tolerated", async () => {
    const headers = { "content-type": "application/json" };
    expect((await h.admin.get("/api/deployments/1", { headers })).status).toBe(200);
    expect((await h.admin.get("/api/clouds/1/volumes", { headers })).status).toBe(200);
    const created = await h.admin.post("/api/deployments", { form: { deployment: { name: "gone" } } });
    expect((await h.admin.delete(created.headers.get("location")!, { headers })).status).toBe(204);
    expect((await h.admin.post("/api/deployments/1/lock", { headers })).status).toBe(204);
  });

  it.each(["X-API-Version", "X-API-VERSION", "x-api-version", "X_API_VERSION"])(
    "the required version header is read when spelled %s (session and oauth2)",
    async (name) => {
      const anon = new SimClient(h.url);
      const headers = {
        "x-api-version": "",
        "content-type": "application/x-www-form-urlencoded",
        [name]: "1.5",
      };
      expect((await anon.post("/api/session", { form: LOGIN, headers })).status).toBe(204);
      const token = await anon.post("/api/oauth2", {
        form: "grant_type=refresh_token&refresh_token=dev-refresh-token",
        headers,
      });
      expect(token.status, token.text).toBe(200);
    },
  );

  it("without any spelling of the header, session and oauth2 are 400", async () => {
    const anon = new SimClient(h.url);
    const headers = { "x-api-version": "" };
    const session = await anon.post("/api/session", { form: LOGIN, headers });
    expect(session.status).toBe(400);
    expect(session.text).toContain("X-API-Version");
    const token = await anon.post("/api/oauth2", {
      form: "grant_type=refresh_token&refresh_token=dev-refresh-token",
      headers,
    });
    expect(token.status).toBe(400);
  });
});
