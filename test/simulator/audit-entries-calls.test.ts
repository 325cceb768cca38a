import { request } from "undici";
import { describe, expect, it } from "vitest";
import { type AuditEntryRep, create, hrefOf, WINDOW } from "./audit-entries-helpers.ts";
import { startFileSimulator } from "./file-simulator.ts";

const h = await startFileSimulator();

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
