import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTextChunks } from "../../src/simulator/misc/graph-png.ts";
import { type Harness, startSimulator } from "./harness.ts";
import { expectRejected, type Rejection } from "./rejections.ts";

// Seed: instance 1 of cloud 1 is operational (it reports metrics), instance 3 is inactive.
let h: Harness;
beforeAll(async () => {
  h = await startSimulator();
});
afterAll(() => h.close());

const BASE = "/api/clouds/1/instances/1/monitoring_metrics";
const LOAD = `${BASE}/load:load`;

interface MetricRep {
  plugin: string;
  view: string;
  graph_href: string;
  links: { rel: string; href: string }[];
  actions: unknown[];
}

interface DataRep {
  start: string;
  end: string;
  variables_data: { variable: string; points: number[] }[];
  links: { rel: string; href: string }[];
}

const hrefOf = (rep: { links: { rel: string; href: string }[] }, rel: string) =>
  rep.links.find((l) => l.rel === rel)?.href;

describe("monitoring metrics", () => {
  it("index lists the instance's metrics with ids <plugin>:<view>", async () => {
    const res = await h.admin.get(BASE);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(
      /^application\/vnd\.svc\.monitoring_metric\+json;type=collection/,
    );
    const list = res.json<MetricRep[]>();
    const load = list.find((m) => m.plugin === "load" && m.view === "load")!;
    expect(hrefOf(load, "self")).toBe(`${BASE}/load%3Aload`);
    expect(hrefOf(load, "data")).toBe(`${BASE}/load%3Aload/data`);
    expect(load.actions).toEqual([]);
    expect(load.graph_href).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/graphs\/clouds\/1\/instances\/1\/monitoring_metrics\//,
    );
  });

  const filters: { reason: string; filter: string[]; want: string[] }[] = [
    { reason: "plugin exact", filter: ["plugin==cpu-0"], want: ["cpu-0:cpu-idle", "cpu-0:cpu-user"] },
    { reason: "plugin is not partial", filter: ["plugin==cpu"], want: [] },
    { reason: "view exact", filter: ["view==if_octets"], want: ["interface-eth0:if_octets"] },
    { reason: "plugin and view", filter: ["plugin==cpu-0", "view<>cpu-idle"], want: ["cpu-0:cpu-user"] },
  ];
  it.each(filters)("filter: $reason", async ({ filter, want }) => {
    const res = await h.admin.get(BASE, { query: { filter } });
    expect(res.status, res.text).toBe(200);
    expect(res.json<MetricRep[]>().map((m) => `${m.plugin}:${m.view}`)).toEqual(want);
  });

  it("show accepts the id raw or URL-encoded, and graph parameters shape graph_href", async () => {
    for (const path of [LOAD, `${BASE}/load%3Aload`]) {
      const res = await h.admin.get(path, {
        query: { period: "week", size: "large", title: "Load", tz: "UTC" },
      });
      expect(res.status, res.text).toBe(200);
      const rep = res.json<MetricRep>();
      expect(rep).toMatchObject({ plugin: "load", view: "load" });
      const graph = new URL(rep.graph_href);
      expect(Object.fromEntries(graph.searchParams)).toEqual({
        period: "week",
        size: "large",
        title: "Load",
        tz: "UTC",
      });
    }
    const defaults = new URL((await h.admin.get(LOAD)).json<MetricRep>().graph_href);
    expect(Object.fromEntries(defaults.searchParams)).toEqual({
      period: "day",
      size: "small",
      tz: "America/Los_Angeles",
    });
  });

  it("data answers one point a minute for the relative window, per variable", async () => {
    const res = await h.admin.get(`${LOAD}/data`, { query: { start: "-600", end: "0" } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/vnd\.svc\.monitoring_metric_data\+json/);
    const rep = res.json<DataRep>();
    // The harness clock is 2026-01-01 00:00:00 UTC.
    expect(rep.start).toBe("2025/12/31 23:50:00 +0000");
    expect(rep.end).toBe("2026/01/01 00:00:00 +0000");
    expect(rep.variables_data.map((v) => v.variable)).toEqual(["shortterm", "midterm", "longterm"]);
    for (const v of rep.variables_data) {
      expect(v.points).toHaveLength(10);
      for (const p of v.points) expect(typeof p).toBe("number");
    }
    expect(hrefOf(rep, "self")).toBe(`${BASE}/load%3Aload/data`);

    const past = (
      await h.admin.get(`${LOAD}/data`, { query: { start: "-3600", end: "-3000" } })
    ).json<DataRep>();
    expect(past.variables_data[0]!.points).toHaveLength(10);
    expect(past.variables_data[0]!.points).not.toEqual(rep.variables_data[0]!.points);
    const empty = (await h.admin.get(`${LOAD}/data`, { query: { start: "0", end: "0" } })).json<DataRep>();
    expect(empty.variables_data[0]!.points).toEqual([]);
  });

  it("data in XML carries ISO 8601 start/end", async () => {
    const res = await h.admin.get(`${LOAD}/data.xml`, { query: { start: "-120", end: "0" } });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toMatch(/<monitoring_metric_data>[\s\S]*<start>2025-12-31T23:58:00Z<\/start>/);
    expect(res.text).toMatch(/<variables_data><variable_data><variable>shortterm<\/variable><points><point>/);
  });

  it("graph_href answers a real PNG of the requested size with the title and zone", async () => {
    const href = (
      await h.admin.get(LOAD, { query: { size: "tiny", title: "Load 1", tz: "Europe/Paris" } })
    ).json<MetricRep>().graph_href;
    const res = await fetch(href);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await res.arrayBuffer());
    const image = PNG.sync.read(png);
    expect([image.width, image.height]).toEqual([200, 75]);
    expect(readTextChunks(png)).toEqual({ Title: "Load 1", Period: "day", Timezone: "Europe/Paris" });

    // An <img> tag asks for images; the graph is not an API representation to negotiate.
    const asImage = await fetch(href, { headers: { accept: "image/png,image/*" } });
    expect(asImage.status).toBe(200);
    expect(asImage.headers.get("content-type")).toBe("image/png");
  });

  it("an instance that is not running has no metrics", async () => {
    expect((await h.admin.get("/api/clouds/1/instances/3/monitoring_metrics")).json<unknown[]>()).toEqual([]);
  });
});

describe("monitoring metrics: rejected calls", () => {
  const cases: Rejection[] = [
    {
      reason: "data without start",
      path: `${LOAD}/data`,
      query: { end: "0" },
      status: 400,
      text: /^ParameterError: start is required/,
    },
    {
      reason: "data without end",
      path: `${LOAD}/data`,
      query: { start: "-60" },
      status: 400,
      text: /end is required/,
    },
    {
      reason: "positive start",
      path: `${LOAD}/data`,
      query: { start: "600", end: "0" },
      status: 400,
      text: /start must be 0 or a negative integer/,
    },
    {
      reason: "start with a plus",
      path: `${LOAD}/data`,
      query: { start: "+0", end: "0" },
      status: 400,
      text: /start must be 0 or a negative integer/,
    },
    {
      reason: "fractional end",
      path: `${LOAD}/data`,
      query: { start: "-60", end: "-0.5" },
      status: 400,
      text: /end must be 0 or a negative integer/,
    },
    {
      reason: "-0",
      path: `${LOAD}/data`,
      query: { start: "-0", end: "0" },
      status: 400,
      text: /start must be 0 or a negative integer/,
    },
    {
      reason: "a date instead of seconds",
      path: `${LOAD}/data`,
      query: { start: "2026/01/01 00:00:00 +0000", end: "0" },
      status: 400,
      text: /start must be/,
    },
    {
      reason: "start after end",
      path: `${LOAD}/data`,
      query: { start: "-60", end: "-120" },
      status: 400,
      text: /start must not be after end/,
    },
    {
      reason: "unknown period",
      path: BASE,
      query: { period: "decade" },
      status: 400,
      text: /period must be one of now, day, yday, week, lweek, month, quarter, year/,
    },
    {
      reason: "unknown size",
      path: LOAD,
      query: { size: "huge" },
      status: 400,
      text: /size must be one of thumb, tiny, small, large, xlarge/,
    },
    {
      reason: "unknown time zone",
      path: BASE,
      query: { tz: "Mars/Olympus" },
      status: 400,
      text: /tz must be a time zone name/,
    },
    {
      reason: "blank period",
      path: BASE,
      query: { period: "" },
      status: 400,
      text: /period must not be blank/,
    },
    {
      reason: "unknown filter",
      path: BASE,
      query: { filter: ["graph_href==x"] },
      status: 400,
      text: /filter\[\] 'graph_href' is not a filter of this index \(allowed: plugin, view\)/,
    },
    {
      reason: "unknown metric",
      path: `${BASE}/cpu-9:cpu-idle`,
      status: 422,
      text: /^ResourceNotFound: Couldn't find MonitoringMetric with ID=cpu-9:cpu-idle$/,
    },
    {
      reason: "unknown metric data",
      path: `${BASE}/nope:nope/data`,
      query: { start: "-60", end: "0" },
      status: 422,
      text: /Couldn't find MonitoringMetric with ID=nope:nope/,
    },
    {
      reason: "unknown instance",
      path: "/api/clouds/1/instances/99/monitoring_metrics",
      status: 422,
      text: /^ResourceNotFound: Couldn't find Instance with ID=99$/,
    },
    {
      reason: "instance of another cloud",
      path: "/api/clouds/2/instances/1/monitoring_metrics",
      status: 422,
      text: /Couldn't find Instance with ID=1/,
    },
    {
      reason: "unknown cloud",
      path: "/api/clouds/9/instances/1/monitoring_metrics",
      status: 422,
      text: /Couldn't find Cloud with ID=9/,
    },
  ];
  expectRejected(() => h, cases);

  it("the graph URL validates its parameters too", async () => {
    const href = new URL((await h.admin.get(LOAD)).json<MetricRep>().graph_href);
    href.searchParams.set("size", "giant");
    const res = await fetch(href);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/size must be one of/);
  });

  it("needs the observer role and the monitoring_api setting", async () => {
    await h.admin.post("/api/permissions", {
      form: { permission: { user_href: "/api/users/2", role_title: "observer" } },
    });
    const res = await h.user2.get(BASE);
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/monitoring_api/);
  });
});
