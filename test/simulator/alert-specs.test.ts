import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startSimulator } from "./harness.ts";
import { callsTo, expectRejected, type Rejection } from "./rejections.ts";

let h: Harness;
beforeAll(async () => {
  h = await startSimulator();
});
afterAll(() => h.close());

const good = {
  name: "disk low",
  condition: "<",
  duration: "15",
  file: "df-root/df_complex-free",
  variable: "value",
  threshold: "1000000",
  escalation_name: "warning",
};

interface AlertSpecRep {
  name: string;
  description: string | null;
  duration: number;
  threshold: string;
  condition: string;
  file: string;
  variable: string;
  escalation_name: string | null;
  vote_tag: string | null;
  vote_type: string | null;
  created_at: string;
  updated_at: string;
  links: { rel: string; href: string }[];
  actions: { rel: string }[];
}

const TIMESTAMP = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \+0000$/;
const hrefOf = (rep: AlertSpecRep, rel: string) => rep.links.find((l) => l.rel === rel)?.href;

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

describe("alert specs: rejected calls change nothing", () => {
  const without = (field: keyof typeof good) => {
    const copy: Record<string, string> = { ...good };
    delete copy[field];
    return copy;
  };
  const cases: Rejection[] = [
    {
      reason: "no alert_spec hash",
      method: "post",
      path: "/api/servers/1/alert_specs",
      form: { x: "1" },
      status: 400,
      text: /^ParameterError: alert_spec is required/,
    },
    ...(["condition", "duration", "file", "name", "threshold", "variable"] as const).map((field) => ({
      reason: `missing ${field}`,
      method: "post" as const,
      path: "/api/servers/1/alert_specs",
      form: { alert_spec: without(field) },
      status: 400,
      text: new RegExp(`^ParameterError: alert_spec\\[${field}\\] is required`),
    })),
    ...callsTo("post", "/api/servers/1/alert_specs", [
      {
        reason: "blank name",
        form: { alert_spec: { ...good, name: "" } },
        status: 400,
        text: /alert_spec\[name\] must not be blank/,
      },
      {
        reason: "condition not in the enum",
        form: { alert_spec: { ...good, condition: "=" } },
        status: 400,
        text: /alert_spec\[condition\] must be one of >, >=, <, <=, ==, !=/,
      },
      {
        reason: "duration with letters",
        form: { alert_spec: { ...good, duration: "5m" } },
        status: 400,
        text: /alert_spec\[duration\] must be digits only/,
      },
      {
        reason: "negative duration",
        form: { alert_spec: { ...good, duration: "-5" } },
        status: 400,
        text: /alert_spec\[duration\] must be digits only/,
      },
      {
        reason: "neither escalate nor vote",
        form: { alert_spec: without("escalation_name") },
        status: 400,
        text: /must either escalate or vote/,
      },
      {
        reason: "both escalate and vote",
        form: { alert_spec: { ...good, vote_type: "grow", vote_tag: "t" } },
        status: 400,
        text: /not both/,
      },
      {
        reason: "vote_type outside grow/shrink",
        form: { alert_spec: { ...without("escalation_name"), vote_type: "up", vote_tag: "t" } },
        status: 400,
        text: /alert_spec\[vote_type\] must be one of grow, shrink/,
      },
      {
        reason: "vote without vote_tag",
        form: { alert_spec: { ...without("escalation_name"), vote_type: "grow" } },
        status: 400,
        text: /alert_spec\[vote_tag\] is required when voting/,
      },
      {
        reason: "unknown member",
        form: { alert_spec: { ...good, colour: "red" } },
        status: 400,
        text: /alert_spec\[colour\] is not allowed/,
      },
    ]),
    {
      reason: "flat create without subject_href",
      method: "post",
      path: "/api/alert_specs",
      form: { alert_spec: good },
      status: 400,
      text: /alert_spec\[subject_href\] is required/,
    },
    {
      reason: "subject_href of another kind",
      method: "post",
      path: "/api/alert_specs",
      form: { alert_spec: { ...good, subject_href: "/api/deployments/1" } },
      status: 400,
      text: /alert_spec\[subject_href\] must be the href of a ServerTemplate, Server, ServerArray or Instance/,
    },
    {
      reason: "subject_href differing from the path",
      method: "post",
      path: "/api/servers/1/alert_specs",
      form: { alert_spec: { ...good, subject_href: "/api/server_arrays/1" } },
      status: 400,
      text: /must be the subject of the path/,
    },
    {
      reason: "subject_href of an unknown server",
      method: "post",
      path: "/api/alert_specs",
      form: { alert_spec: { ...good, subject_href: "/api/servers/999" } },
      status: 422,
      text: /^ResourceNotFound: Couldn't find Server with ID=999$/,
    },
    {
      reason: "unknown server in the path",
      method: "post",
      path: "/api/servers/999/alert_specs",
      form: { alert_spec: good },
      status: 422,
      text: /^ResourceNotFound: Couldn't find Server with ID=999$/,
    },
    {
      reason: "unknown instance in the path",
      method: "get",
      path: "/api/clouds/1/instances/999/alert_specs",
      status: 422,
      text: /^ResourceNotFound: Couldn't find Instance with ID=999$/,
    },
    ...callsTo("put", "/api/alert_specs/1", [
      {
        reason: "update with subject_href",
        form: { alert_spec: { subject_href: "/api/servers/1" } },
        status: 400,
        text: /alert_spec\[subject_href\] is not allowed/,
      },
      {
        reason: "update blanking a required field",
        form: { alert_spec: { threshold: "" } },
        status: 400,
        text: /alert_spec\[threshold\] must not be blank/,
      },
      {
        reason: "update duration not digits",
        form: { alert_spec: { duration: "1.5" } },
        status: 400,
        text: /alert_spec\[duration\] must be digits only/,
      },
      {
        reason: "update adding a vote to an escalating spec",
        form: { alert_spec: { vote_type: "grow", vote_tag: "t" } },
        status: 400,
        text: /not both/,
      },
    ]),
    {
      reason: "update of an unknown id",
      method: "put",
      path: "/api/alert_specs/999",
      form: { alert_spec: { name: "x" } },
      status: 422,
      text: /^ResourceNotFound: Couldn't find AlertSpec with ID=999$/,
    },
    {
      reason: "index with_inherited not a boolean word",
      method: "get",
      path: "/api/servers/1/alert_specs",
      query: { with_inherited: "yes" },
      status: 400,
      text: /with_inherited must be one of true, false/,
    },
    {
      reason: "index with an unknown filter",
      method: "get",
      path: "/api/alert_specs",
      query: { filter: ["condition==<"] },
      status: 400,
      text: /filter\[\] 'condition' is not a filter of this index/,
    },
    {
      reason: "index with an unknown view",
      method: "get",
      path: "/api/alert_specs",
      query: { view: "extended" },
      status: 400,
      text: /view must be one of default/,
    },
  ];
  expectRejected(() => h, cases);

  it("destroy of an unknown id is a 422 and changes nothing", async () => {
    const res = await h.expectUnchanged(() => h.admin.delete("/api/server_templates/1/alert_specs/999"));
    expect(res.status).toBe(422);
    expect(res.text).toBe("ResourceNotFound: Couldn't find AlertSpec with ID=999");
  });

  it("writes need the actor role", async () => {
    const res = await h.expectUnchanged(() =>
      h.user2.post("/api/servers/1/alert_specs", { form: { alert_spec: good } }),
    );
    expect(res.status).toBe(403);
  });
});
