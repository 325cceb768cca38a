import { expect } from "vitest";
import type { SimClient } from "./harness.ts";

// What the audit-entries-*.test.ts files share. The harness clock starts at
// 2026-01-01 00:00:00 UTC and moves only through /__sim/clock.

export const WINDOW = {
  start_date: "2025/12/31 00:00:00 +0000",
  end_date: "2026/01/02 00:00:00 +0000",
  limit: "1000",
};

export interface AuditEntryRep {
  summary: string;
  user_email: string;
  updated_at: string;
  detail_size: number;
  links: { rel: string; href: string }[];
  actions: { rel: string }[];
}

export const hrefOf = (rep: AuditEntryRep, rel: string) => rep.links.find((l) => l.rel === rel)?.href;

export async function create(
  client: SimClient,
  entry: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const res = await client.post("/api/audit_entries", { form: { audit_entry: entry, ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.headers.get("location")!;
}
