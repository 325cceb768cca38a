import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceModule, RouteDef } from "../../src/simulator/resource.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import { routesResource } from "../../src/simulator/resources/routes.ts";
import { loadFacts, routeIndex, routeKey } from "./conformance/facts.ts";
import { RECORDED_REQUESTS } from "./conformance/recorded.ts";
import { RULES } from "./conformance/rules.ts";
import { type WalkReport, walk } from "./conformance/walk.ts";
import { richWorld, UNLINKED_ENTRY_POINTS, WALK_ENTRY_POINTS } from "./conformance/world.ts";
import { type Harness, SimClient, startSimulator } from "./harness.ts";
import { OTHER_SAMPLES, SAMPLES, type Sample, templatesOf } from "./route-samples.ts";

// Issue 20: the simulator held to the real service's reference data
// (fixtures/real-media-types.json). Every route it serves is a route of the reference (or a
// documented link target beyond it) and answers the reference's status; a walk along every
// link, in every view each real route accepts, finds only declared attributes and rels, in the
// reference's order, every declared attribute the view carries, and 400 for other views.
const facts = loadFacts();
const routes = routeIndex(facts);

/** Served routes the reference does not list: targets of links it declares, and raw bytes. */
const BEYOND_REFERENCE = [
  "GET /api/clouds/:/images",
  "GET /api/clouds/:/images/:",
  "GET /api/clouds/:/instances/:/alerts",
  "GET /api/clouds/:/instances/:/volume_attachments",
  "GET /api/clouds/:/network_interfaces",
  "GET /api/clouds/:/network_interfaces/:",
  "GET /api/clouds/:/security_groups",
  "GET /api/clouds/:/security_groups/:",
  "GET /api/clouds/:/ssh_keys",
  "GET /api/clouds/:/ssh_keys/:",
  "GET /api/clouds/:/volume_attachments",
  "GET /api/clouds/:/volume_attachments/:",
  "GET /api/deployments/:/alerts",
  "GET /api/multi_cloud_images/:",
  "GET /api/server_arrays/:/alerts",
  "GET /api/servers/:/alerts",
  "GET /downloads/stored_scripts/:/attachments/:",
  "GET /graphs/clouds/:/instances/:/monitoring_metrics/:",
];

const registered = templatesOf(resources).map((t) => {
  const [method, template] = t.split(" ") as [string, string];
  return { method, template, key: routeKey(method, template) };
});

describe("routes and status codes", () => {
  it("every route served is a route of the reference, or a documented target beyond it", () => {
    const beyond = registered.filter((r) => !routes.has(r.key)).map((r) => r.key);
    expect([...new Set(beyond)].sort()).toEqual([...BEYOND_REFERENCE].sort());
  });

  it("the session resource, the accounts listing and the health check are served", () => {
    const keys = new Set(registered.map((r) => r.key));
    for (const action of ["accounts", "index"]) {
      for (const route of facts.Sessions!.actions[action]!.routes) {
        const [method, template] = route.split(" ") as [string, string];
        expect(keys, route).toContain(routeKey(method, template));
      }
    }
    expect(keys).toContain(routeKey("GET", "/api/health-check/"));
  });

  describe("each sample call answers the status the reference gives its action", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startSimulator();
    });
    afterAll(() => h.close());
    const inReference = [...SAMPLES, ...OTHER_SAMPLES].filter(([m, t]) => routes.has(routeKey(m, t)));
    it.each(inReference)("%s %s", async (...[method, template, path, _status, options, extra]: Sample) => {
      await h.hook("reset");
      if (method === "DELETE" && path === "/api/deployments/2")
        await h.admin.post("/api/deployments/2/unlock");
      await extra?.setup?.(h);
      const href = typeof path === "string" ? path : await path(h);
      const client =
        method === "POST" && /^\/api\/(session|oauth2)/.test(href) ? new SimClient(h.url) : h.admin;
      const res = await client.request(method, href, options);
      const expected = routes.get(routeKey(method, template))!;
      expect(res.status, `${expected.resource}#${expected.action}: ${res.text}`).toBe(expected.facts.status);
    });
  });
});

describe("representations, views and links (a walk of a rich world)", () => {
  let h: Harness;
  let report: WalkReport;
  const gets = registered.filter((r) => r.method === "GET").map((r) => r.template);
  beforeAll(async () => {
    h = await startSimulator();
    await richWorld(h);
    report = await walk({
      client: h.admin,
      facts,
      rules: RULES,
      templates: gets,
      entryPoints: [...WALK_ENTRY_POINTS, ...UNLINKED_ENTRY_POINTS],
      emptyWithoutView: ["/api/sessions"],
    });
  });
  afterAll(() => h.close());

  it("finds every representation in the real shape, every real view accepted and no other", () => {
    expect(report.problems).toEqual([]);
    expect(report.checked).toBeGreaterThan(500);
  });

  it("reaches every GET route the simulator serves, except the signed raw URLs", () => {
    const raw = [
      "/downloads/stored_scripts/:stored_script_id/attachments/:id",
      "/graphs/clouds/:cloud_id/instances/:instance_id/monitoring_metrics/:id",
    ];
    expect(gets.filter((t) => !report.visited.has(t)).sort()).toEqual(raw.sort());
  });

  it("sends every declared attribute and every declared rel the simulator models", () => {
    const missing: string[] = [];
    for (const [resource, declared] of Object.entries(facts)) {
      if (declared.media_type === null || !RULES[resource]) continue;
      const attributes = report.seen.attributes.get(resource) ?? new Set();
      const rels = report.seen.rels.get(resource) ?? new Set();
      const unservedAttributes = RULES[resource]!.unservedAttributes ?? {};
      for (const a of declared.attributes)
        if (!attributes.has(a) && !(a in unservedAttributes)) missing.push(`${resource} attribute ${a}`);
      const unserved = RULES[resource]!.unservedLinks ?? {};
      for (const rel of declared.links) {
        if (rel in unserved) {
          if (rels.has(rel)) missing.push(`${resource} rel ${rel} is sent, yet listed as unserved`);
        } else if (!rels.has(rel)) missing.push(`${resource} rel ${rel}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

// Issue 37 item 5: what one view carries is a fact only recorded real answers show
// (conformance/recorded.ts). The same requests to the seeded simulator answer objects with
// exactly the recorded attributes and the recorded rels in the recorded order (less a link to
// an object the seed lacks: a stopped server has no current instance; the first object of
// each answer has them all), and the walk's rules for those views say the same.
describe("the recorded real answers", () => {
  type Answered = Record<string, unknown> & { links: Array<{ rel: string }> };
  let h: Harness;
  beforeAll(async () => {
    h = await startSimulator();
  });
  afterAll(() => h.close());

  it.each(RECORDED_REQUESTS.map((r) => [`${r.path}${r.embeddedIn ? ` (${r.embeddedIn})` : ""}`, r] as const))(
    "%s",
    async (_name, { path, embeddedIn, shape }) => {
      const res = await h.admin.get(path);
      expect(res.status, res.text).toBe(200);
      const listed = res.json<Answered[]>();
      const objects = (embeddedIn ? listed.map((o) => o[embeddedIn] as Answered | null) : listed).filter(
        (o): o is Answered => o !== null,
      );
      expect(objects.length).toBeGreaterThan(0);
      for (const object of objects) {
        const attributes = Object.keys(object).filter((k) => k !== "links");
        expect(attributes.sort(), `${object.name}`).toEqual([...shape.attributes]);
        const rels = object.links.map((l) => l.rel);
        expect(rels, `${object.name}`).toEqual(shape.links.filter((rel) => rels.includes(rel)));
      }
      expect(objects[0]!.links.map((l) => l.rel)).toEqual(shape.links);
    },
  );

  it("the walk's rules for those views are the recorded shapes", () => {
    for (const shape of new Set(RECORDED_REQUESTS.map((r) => r.shape))) {
      const rules = RULES[shape.resource]!;
      const declared = facts[shape.resource]!;
      const omitted = [...rules.views[shape.view]!, ...Object.keys(rules.unservedAttributes ?? {})];
      const carried = declared.attributes.filter((a) => a !== "links" && !omitted.includes(a));
      expect(carried.sort(), `${shape.resource} ${shape.view}`).toEqual([...shape.attributes]);
      const order = rules.linkOrder ?? declared.links;
      const rels = rules.viewLinks?.[shape.view] ?? declared.links;
      const sent = order.filter((rel) => rels.includes(rel) && !(rel in (rules.unservedLinks ?? {})));
      expect(sent, `${shape.resource} ${shape.view}`).toEqual([...shape.links]);
    }
  });
});

/** A module whose JSON answers carry one attribute more on every object. */
function withExtraAttribute(module: ResourceModule, name: string): ResourceModule {
  return {
    ...module,
    register(sim) {
      module.register({
        ...sim,
        route(def: RouteDef) {
          sim.route({
            ...def,
            async handler(ctx) {
              const answer = await def.handler(ctx);
              if (!/\+json/.test(String(answer.headers["content-type"] ?? ""))) return answer;
              const body = JSON.parse(String(answer.body));
              const add = (o: Record<string, unknown>) => ({ ...o, [name]: null });
              return { ...answer, body: JSON.stringify(Array.isArray(body) ? body.map(add) : add(body)) };
            },
          });
        },
      });
    },
  };
}

describe("the walk fails on an undeclared attribute", () => {
  it("routes that carried next_hop_href again would be reported", async () => {
    const h = await startSimulator({
      resources: resources.map((m) => (m === routesResource ? withExtraAttribute(m, "next_hop_href") : m)),
    });
    try {
      await richWorld(h);
      const report = await walk({
        client: h.admin,
        facts,
        rules: RULES,
        templates: templatesOf(resources)
          .filter((t) => t.startsWith("GET "))
          .map((t) => t.slice(4)),
        entryPoints: ["/api/routes"],
      });
      expect(report.problems, report.problems.join("\n")).toContain(
        "GET /api/routes view=default: Routes (view default): undeclared attribute 'next_hop_href'",
      );
      expect(report.problems.every((p) => p.includes("'next_hop_href'"))).toBe(true);
    } finally {
      await h.close();
    }
  });
});
