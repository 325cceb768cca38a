import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, type SimClient, startSimulator } from "./harness.ts";
import { callsTo, expectRejected, type Rejection } from "./rejections.ts";

// The harness clock starts at 2026-01-01 00:00:00 UTC and moves only through /__sim/clock.
let h: Harness;
beforeAll(async () => {
  h = await startSimulator();
});
afterAll(() => h.close());

const WINDOW = {
  start_date: "2025/12/31 00:00:00 +0000",
  end_date: "2026/01/02 00:00:00 +0000",
  limit: "1000",
};

interface AuditEntryRep {
  summary: string;
  user_email: string;
  updated_at: string;
  detail_size: number;
  links: { rel: string; href: string }[];
  actions: { rel: string }[];
}

const hrefOf = (rep: AuditEntryRep, rel: string) => rep.links.find((l) => l.rel === rel)?.href;

/** A session cookie of user 1, for calls the harness client cannot make (a GET with a body). */
async function sessionCookie(): Promise<string> {
  const res = await fetch(`${h.url}/api/session`, {
    method: "POST",
    headers: { "x-api-version": "1.5", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      email: "admin@example.com",
      password: "password",
      account_href: "/api/accounts/1",
    }),
  });
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function create(
  client: SimClient,
  entry: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const res = await client.post("/api/audit_entries", { form: { audit_entry: entry, ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.headers.get("location")!;
}

describe("audit entries", () => {
  it("create answers 201 with Location; show has the fields with their JSON types", async () => {
    const href = await create(h.admin, {
      auditee_href: "/api/deployments/1",
      summary: "deploy started",
      detail: "line 1\n",
    });
    expect(href).toMatch(/^\/api\/audit_entries\/\d+$/);
    const res = await h.admin.get(href);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/vnd\.svc\.audit_entry\+json/);
    const rep = res.json<AuditEntryRep>();
    expect(rep).toMatchObject({
      summary: "deploy started",
      user_email: "admin@example.com",
      updated_at: "2026/01/01 00:00:00 +0000",
      detail_size: 7,
      actions: [{ rel: "append" }],
    });
    expect(hrefOf(rep, "self")).toBe(href);
    expect(hrefOf(rep, "auditee")).toBe("/api/deployments/1");
    expect(hrefOf(rep, "detail")).toBe(`${href}/detail`);
  });

  it("append orders chunks by offset, defaults to the end, and detail serves the joined text", async () => {
    const href = await create(h.admin, { auditee_href: "/api/deployments/1", summary: "chunks" });
    const append = (form: Record<string, unknown>) => h.admin.post(`${href}/append`, { form });
    expect((await append({ detail: "third\n", offset: "100" })).status).toBe(204);
    expect((await append({ detail: "first\n", offset: "0" })).status).toBe(204);
    expect((await append({ detail: "second\n", offset: "50" })).status).toBe(204);
    const last = await append({ detail: "last\n", summary: "chunks done", notify: "Notification" });
    expect(last.status).toBe(204);
    expect(last.text).toBe("");

    const detail = await h.admin.get(`${href}/detail`);
    expect(detail.status).toBe(200);
    expect(detail.headers.get("content-type")).toMatch(/^application\/vnd\.svc\.text/);
    expect(detail.text).toBe("first\nsecond\nthird\nlast\n");
    const rep = (await h.admin.get(href)).json<AuditEntryRep>();
    expect(rep.summary).toBe("chunks done");
    expect(rep.detail_size).toBe(Buffer.byteLength("first\nsecond\nthird\nlast\n"));
  });

  it("update's offset places the following appends", async () => {
    const href = await create(h.admin, { auditee_href: "/api/deployments/1", summary: "u" });
    await h.admin.post(`${href}/append`, { form: { detail: "b\n" } }); // offset 0
    await h.admin.post(`${href}/append`, { form: { detail: "c\n" } }); // offset 2 (the end)
    expect((await h.admin.put(href, { form: { audit_entry: { summary: "u2", offset: "1" } } })).status).toBe(
      204,
    );
    await h.admin.post(`${href}/append`, { form: { detail: "x\n" } }); // offset 1, from the update
    expect((await h.admin.get(`${href}/detail`)).text).toBe("b\nx\nc\n");
    expect((await h.admin.get(href)).json<AuditEntryRep>().summary).toBe("u2");
  });

  it("accepts JSON bodies, and index parameters in a GET body", async () => {
    const res = await h.admin.post("/api/audit_entries", {
      json: { audit_entry: { auditee_href: "/api/deployments/2", summary: "json" }, notify: "Security" },
    });
    expect(res.status, res.text).toBe(201);
    // fetch refuses a GET body; undici's request sends it, as official examples do.
    const cookie = await sessionCookie();
    const listed = await request(`${h.url}/api/audit_entries`, {
      method: "GET",
      headers: { "content-type": "application/json", "x-api-version": "1.5", cookie },
      body: JSON.stringify({ ...WINDOW, filter: ["auditee_href==/api/deployments/2"] }),
    });
    const text = await listed.body.text();
    expect(listed.statusCode, text).toBe(200);
    expect((JSON.parse(text) as AuditEntryRep[]).map((r) => r.summary)).toEqual(["json"]);
  });

  it("index: window, filters, limit, newest first", async () => {
    await h.hook("clock", { advanceSeconds: 3600 });
    const later = await create(h.admin, { auditee_href: "/api/deployments/2", summary: "later" });
    const list = async (query: Record<string, unknown>) => {
      const res = await h.admin.get("/api/audit_entries", { query: { ...WINDOW, ...query } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(
        /^application\/vnd\.svc\.audit_entry\+json;type=collection/,
      );
      return res.json<AuditEntryRep[]>();
    };
    const all = await list({});
    expect(hrefOf(all[0]!, "self")).toBe(later);
    expect(all.length).toBeGreaterThan(2);
    expect(await list({ limit: "1" })).toHaveLength(1);
    const byAuditee = await list({ filter: ["auditee_href==/api/deployments/2"] });
    expect(byAuditee.map((r) => r.summary)).toEqual(["later", "json"]);
    expect((await list({ filter: ["user_email==nobody@example.com"] })).length).toBe(0);
    expect((await list({ filter: ["user_email==admin@example.com"] })).length).toBe(all.length);
    // The window ends before the clock moved: `later` is outside it.
    const early = await list({ end_date: "2026/01/01 00:30:00 +0000" });
    expect(early.map((r) => hrefOf(r, "self"))).not.toContain(later);
    // The same instant written with another offset.
    const shifted = await list({ end_date: "2025/12/31 16:30:00 -0800" });
    expect(shifted.length).toBe(early.length);
  });

  it("renders XML", async () => {
    const res = await h.admin.get("/api/audit_entries/1.xml");
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /<audit_entry>[\s\S]*<detail_size>\d+<\/detail_size>[\s\S]*<action rel="append"\/>/,
    );
  });
});

describe("audit entries: rejected calls change nothing", () => {
  const long = "x".repeat(256);
  const entry = { auditee_href: "/api/deployments/1", summary: "ok" };
  const cases: Rejection[] = [
    ...callsTo("get", "/api/audit_entries", [
      {
        reason: "index without start_date",
        query: { ...WINDOW, start_date: undefined },
        status: 400,
        text: /^ParameterError: start_date is required/,
      },
      {
        reason: "index without end_date",
        query: { ...WINDOW, end_date: undefined },
        status: 400,
        text: /end_date is required/,
      },
      {
        reason: "index without limit",
        query: { ...WINDOW, limit: undefined },
        status: 400,
        text: /limit is required/,
      },
      {
        reason: "ISO date",
        query: { ...WINDOW, start_date: "2026-01-01T00:00:00Z" },
        status: 400,
        text: /start_date must be YYYY\/MM\/DD HH:MM:SS \[\+\/-\]ZZZZ/,
      },
      {
        reason: "date without offset",
        query: { ...WINDOW, end_date: "2026/01/02 00:00:00" },
        status: 400,
        text: /end_date must be/,
      },
      {
        reason: "a date that does not exist",
        query: { ...WINDOW, start_date: "2025/02/30 00:00:00 +0000" },
        status: 400,
        text: /start_date must be a real date/,
      },
      {
        reason: "end before start",
        query: { ...WINDOW, start_date: "2026/01/03 00:00:00 +0000" },
        status: 400,
        text: /end_date must not be before start_date/,
      },
      {
        reason: "span of 93 days",
        query: { ...WINDOW, start_date: "2025/10/01 00:00:00 +0000", end_date: "2026/01/02 00:00:00 +0000" },
        status: 400,
        text: /less than 93 days/,
      },
      {
        reason: "limit 0",
        query: { ...WINDOW, limit: "0" },
        status: 400,
        text: /limit must be between 1 and 1000/,
      },
      {
        reason: "limit 1001",
        query: { ...WINDOW, limit: "1001" },
        status: 400,
        text: /limit must be between 1 and 1000/,
      },
      {
        reason: "limit not digits",
        query: { ...WINDOW, limit: "ten" },
        status: 400,
        text: /limit must be digits only/,
      },
      {
        reason: "unknown filter",
        query: { ...WINDOW, filter: ["summary==x"] },
        status: 400,
        text: /filter\[\] 'summary' is not a filter of this index \(allowed: auditee_href, user_email\)/,
      },
    ]),
    ...callsTo("post", "/api/audit_entries", [
      {
        reason: "create without the hash",
        form: { summary: "x" },
        status: 400,
        text: /audit_entry is required/,
      },
      {
        reason: "create without auditee_href",
        form: { audit_entry: { summary: "x" } },
        status: 400,
        text: /audit_entry\[auditee_href\] is required/,
      },
      {
        reason: "create without summary",
        form: { audit_entry: { auditee_href: "/api/deployments/1" } },
        status: 400,
        text: /audit_entry\[summary\] is required/,
      },
      {
        reason: "create with a blank summary",
        form: { audit_entry: { ...entry, summary: "" } },
        status: 400,
        text: /audit_entry\[summary\] must not be blank/,
      },
      {
        reason: "create with 256 characters",
        form: { audit_entry: { ...entry, summary: long } },
        status: 400,
        text: /audit_entry\[summary\] must be 1 to 255 characters \(got 256\)/,
      },
      {
        reason: "create with a bad notify",
        form: { audit_entry: entry, notify: "Loud" },
        status: 400,
        text: /notify must be one of None, Notification, Security, Error/,
      },
      {
        reason: "create with an auditee that is not an href",
        form: { audit_entry: { ...entry, auditee_href: "deployments/1" } },
        status: 400,
        text: /audit_entry\[auditee_href\] must be an href/,
      },
      {
        reason: "create with an unknown auditee",
        form: { audit_entry: { ...entry, auditee_href: "/api/deployments/999" } },
        status: 422,
        text: /^ResourceNotFound: Couldn't find Deployment with ID=999$/,
      },
      {
        reason: "create with an unknown member",
        form: { audit_entry: { ...entry, colour: "red" } },
        status: 400,
        text: /audit_entry\[colour\] is not allowed/,
      },
    ]),
    ...callsTo("put", "/api/audit_entries/1", [
      {
        reason: "update without summary",
        form: { audit_entry: { offset: "1" } },
        status: 400,
        text: /audit_entry\[summary\] is required/,
      },
      {
        reason: "update with 256 characters",
        form: { audit_entry: { summary: long } },
        status: 400,
        text: /must be 1 to 255 characters/,
      },
      {
        reason: "update with a negative offset",
        form: { audit_entry: { summary: "s", offset: "-1" } },
        status: 400,
        text: /audit_entry\[offset\] must be between 0/,
      },
      {
        reason: "update with a word offset",
        form: { audit_entry: { summary: "s", offset: "end" } },
        status: 400,
        text: /audit_entry\[offset\] must be an Integer/,
      },
    ]),
    {
      reason: "update of an unknown id",
      method: "put",
      path: "/api/audit_entries/999",
      form: { audit_entry: { summary: "s" } },
      status: 422,
      text: /^ResourceNotFound: Couldn't find AuditEntry with ID=999$/,
    },
    ...callsTo("post", "/api/audit_entries/1/append", [
      {
        reason: "append with 256 characters",
        form: { summary: long },
        status: 400,
        text: /^ParameterError: summary must be 1 to 255 characters/,
      },
      {
        reason: "append with a blank summary",
        form: { summary: "" },
        status: 400,
        text: /summary must not be blank/,
      },
      {
        reason: "append with a fractional offset",
        form: { detail: "x", offset: "1.5" },
        status: 400,
        text: /offset must be an Integer/,
      },
      {
        reason: "append with a bad notify",
        form: { detail: "x", notify: "none" },
        status: 400,
        text: /notify must be one of/,
      },
    ]),
    {
      reason: "append to an unknown id",
      method: "post",
      path: "/api/audit_entries/999/append",
      form: { detail: "x" },
      status: 422,
      text: /^ResourceNotFound: Couldn't find AuditEntry with ID=999$/,
    },
    {
      reason: "detail of an unknown id",
      method: "get",
      path: "/api/audit_entries/999/detail",
      status: 422,
      text: /^ResourceNotFound: Couldn't find AuditEntry with ID=999$/,
    },
    {
      reason: "show of an unknown id",
      method: "get",
      path: "/api/audit_entries/999",
      status: 422,
      text: /^ResourceNotFound: Couldn't find AuditEntry with ID=999$/,
    },
  ];
  expectRejected(() => h, cases);

  it("user_email needs the instance role", async () => {
    // user 1 has every role, so grant user 2 observer + actor only.
    await h.admin.post("/api/permissions", {
      form: { permission: { user_href: "/api/users/2", role_title: "observer" } },
    });
    await h.admin.post("/api/permissions", {
      form: { permission: { user_href: "/api/users/2", role_title: "actor" } },
    });
    const res = await h.expectUnchanged(() =>
      h.user2.post("/api/audit_entries", { form: { audit_entry: entry, user_email: "x@example.com" } }),
    );
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/user_email is only usable with the instance role/);
    // Without user_email the entry is the caller's.
    const ok = await h.user2.post("/api/audit_entries", { form: { audit_entry: entry } });
    expect(ok.status, ok.text).toBe(201);
    expect((await h.user2.get(ok.headers.get("location")!)).json<AuditEntryRep>().user_email).toBe(
      "user2@example.com",
    );
    // With the instance role (user 1) user_email is taken as given.
    const as = await create(h.admin, entry, { user_email: "agent@example.com" });
    expect((await h.admin.get(as)).json<AuditEntryRep>().user_email).toBe("agent@example.com");
  });
});
