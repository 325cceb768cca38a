import { describe, expect, it } from "vitest";
import { type AuditEntryRep, create, WINDOW } from "./audit-entries-helpers.ts";
import { startFileSimulator } from "./file-simulator.ts";
import { callsTo, expectRejected, type Rejection } from "./rejections.ts";

const h = await startFileSimulator();

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
