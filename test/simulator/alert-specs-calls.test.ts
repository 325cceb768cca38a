import { describe, expect, it } from "vitest";
import { type AlertSpecRep, good, hrefOf, TIMESTAMP } from "./alert-specs-helpers.ts";
import { startFileSimulator } from "./file-simulator.ts";

const h = await startFileSimulator();

const PREFIXES: { reason: string; prefix: string; subject: string }[] = [
  { reason: "flat with subject_href", prefix: "/api/alert_specs", subject: "/api/servers/1" },
  { reason: "server", prefix: "/api/servers/1/alert_specs", subject: "/api/servers/1" },
  { reason: "server array", prefix: "/api/server_arrays/1/alert_specs", subject: "/api/server_arrays/1" },
  {
    reason: "server template",
    prefix: "/api/server_templates/1/alert_specs",
    subject: "/api/server_templates/1",
  },
  {
    reason: "instance",
    prefix: "/api/clouds/1/instances/1/alert_specs",
    subject: "/api/clouds/1/instances/1",
  },
];

describe("alert specs: the five prefixes", () => {
  it.each(PREFIXES)("create, show, update, destroy under $reason", async ({ prefix, subject }) => {
    const spec = prefix === "/api/alert_specs" ? { ...good, subject_href: subject } : good;
    const created = await h.admin.post(prefix, { form: { alert_spec: spec } });
    expect(created.status, created.text).toBe(201);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/api\/alert_specs\/\d+$/);
    const id = location.split("/").pop();

    const shown = await h.admin.get(`${prefix}/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toMatch(/^application\/vnd\.svc\.alert_spec\+json/);
    const rep = shown.json<AlertSpecRep>();
    expect(rep).toMatchObject({
      name: "disk low",
      description: null,
      duration: 15,
      threshold: "1000000",
      condition: "<",
      escalation_name: "warning",
      vote_tag: null,
      vote_type: null,
      actions: [],
    });
    expect(rep.created_at).toMatch(TIMESTAMP);
    expect(rep.updated_at).toMatch(TIMESTAMP);
    expect(hrefOf(rep, "self")).toBe(location);
    expect(hrefOf(rep, "subject")).toBe(subject);

    const listed = await h.admin.get(prefix);
    expect(listed.headers.get("content-type")).toMatch(/;type=collection/);
    expect(listed.json<AlertSpecRep[]>().map((r) => hrefOf(r, "self"))).toContain(location);

    const updated = await h.admin.put(`${prefix}/${id}`, {
      form: { alert_spec: { duration: "30", description: "d" } },
    });
    expect(updated.status, updated.text).toBe(204);
    expect(updated.text).toBe("");
    const after = (await h.admin.get(location)).json<AlertSpecRep>();
    expect(after.duration).toBe(30);
    expect(after.description).toBe("d");

    expect((await h.admin.delete(`${prefix}/${id}`)).status).toBe(204);
    const gone = await h.admin.get(location);
    expect(gone.status).toBe(422);
    expect(gone.text).toBe(`ResourceNotFound: Couldn't find AlertSpec with ID=${id}`);
  });

  it("accepts JSON bodies and a vote instead of an escalation", async () => {
    const res = await h.admin.post("/api/server_arrays/1/alert_specs", {
      json: {
        alert_spec: {
          ...good,
          escalation_name: undefined,
          vote_type: "shrink",
          vote_tag: "web",
          duration: 5,
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    const rep = (await h.admin.get(res.headers.get("location")!)).json<AlertSpecRep>();
    expect(rep).toMatchObject({ vote_type: "shrink", vote_tag: "web", escalation_name: null, duration: 5 });
  });

  it("switches from escalating to voting on update when the escalation is blanked", async () => {
    const res = await h.admin.post("/api/servers/1/alert_specs", { form: { alert_spec: good } });
    const href = res.headers.get("location")!;
    const put = await h.admin.put(href, {
      form: { alert_spec: { escalation_name: "", vote_type: "grow", vote_tag: "web" } },
    });
    expect(put.status, put.text).toBe(204);
    expect((await h.admin.get(href)).json<AlertSpecRep>()).toMatchObject({
      escalation_name: null,
      vote_type: "grow",
    });
  });

  it("a subject prefix reaches only its own specs", async () => {
    const res = await h.admin.post("/api/servers/1/alert_specs", { form: { alert_spec: good } });
    const id = res.headers.get("location")!.split("/").pop();
    const other = await h.admin.get(`/api/server_arrays/1/alert_specs/${id}`);
    expect(other.status).toBe(422);
    expect(other.text).toBe(`ResourceNotFound: Couldn't find AlertSpec with ID=${id}`);
  });

  it("renders XML with the alert_spec root", async () => {
    const res = await h.admin.get("/api/alert_specs/1.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/vnd\.svc\.alert_spec\+xml/);
    expect(res.text).toMatch(
      /<alert_spec>[\s\S]*<duration>5<\/duration>[\s\S]*<link rel="self" href="\/api\/alert_specs\/1"\/>/,
    );
  });
});

describe("alert specs: index", () => {
  const selfHrefs = async (path: string, query: Record<string, unknown> = {}) => {
    const res = await h.admin.get(path, { query });
    expect(res.status, res.text).toBe(200);
    return res.json<AlertSpecRep[]>().map((r) => hrefOf(r, "self"));
  };

  it("with_inherited=true adds the ServerTemplate's specs to a server's", async () => {
    // Seed: spec 1 on server template 1, spec 2 on server 1 (whose template is 1).
    expect(await selfHrefs("/api/servers/1/alert_specs")).not.toContain("/api/alert_specs/1");
    expect(await selfHrefs("/api/servers/1/alert_specs", { with_inherited: "false" })).not.toContain(
      "/api/alert_specs/1",
    );
    const inherited = await selfHrefs("/api/servers/1/alert_specs", { with_inherited: "true" });
    expect(inherited).toContain("/api/alert_specs/1");
    expect(inherited).toContain("/api/alert_specs/2");
  });

  const filterCases: { reason: string; filter: string[]; has: string; hasNot: string }[] = [
    {
      reason: "name is partial and case-insensitive",
      filter: ["name==CPU"],
      has: "/api/alert_specs/1",
      hasNot: "/api/alert_specs/2",
    },
    {
      reason: "name excluded with <>",
      filter: ["name<>cpu"],
      has: "/api/alert_specs/2",
      hasNot: "/api/alert_specs/1",
    },
    {
      reason: "description is partial",
      filter: ["description==idle below"],
      has: "/api/alert_specs/1",
      hasNot: "/api/alert_specs/2",
    },
    {
      reason: "escalation_name is exact",
      filter: ["escalation_name==critical"],
      has: "/api/alert_specs/1",
      hasNot: "/api/alert_specs/2",
    },
    {
      reason: "subject_href is exact",
      filter: ["subject_href==/api/servers/1"],
      has: "/api/alert_specs/2",
      hasNot: "/api/alert_specs/1",
    },
  ];
  it.each(filterCases)("filter: $reason", async ({ filter, has, hasNot }) => {
    const hrefs = await selfHrefs("/api/alert_specs", { filter });
    expect(hrefs).toContain(has);
    expect(hrefs).not.toContain(hasNot);
  });

  it("escalation_name is not partial", async () => {
    expect(await selfHrefs("/api/alert_specs", { filter: ["escalation_name==crit"] })).toEqual([]);
  });
});
