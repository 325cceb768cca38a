// Issue 22 items 1 and 6 (and the multipart limits of "Hostile tenants and hostile services, second
// round", item 5): the simulator process answers the hostile corpus on both of its ports
// with a 4xx or a closed connection, keeps serving, stays within its memory bound, and no request
// reaches the 500 path (no error line in its log).
import { afterAll, describe, expect, it } from "vitest";
import { simHookHeaders } from "../support/sim-hook.ts";
import {
  multipartUpload,
  type Outcome,
  sendCorpus,
  slowHeaders,
  type Target,
  unacceptable,
} from "./corpus.ts";
import { errorLines, RSS_GROWTH_LIMIT_MB, rssMb, spawnCli } from "./processes.ts";

const proc = spawnCli(["simulator", "--port", "0", "--region-port", "0", "--log-level", "warn"]);
afterAll(() => proc.stop());

const V = { "X-API-Version": "1.5" };

async function bearer(url: string): Promise<string> {
  const res = await fetch(`${url}/api/oauth2`, {
    method: "POST",
    headers: { ...V, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=refresh_token&refresh_token=dev-refresh-token",
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function deployment1(url: string, token: string): Promise<{ status: number; name?: string }> {
  const res = await fetch(`${url}/api/deployments/1`, {
    headers: { ...V, authorization: `Bearer ${token}` },
  });
  return { status: res.status, name: ((await res.json()) as { name?: string }).name };
}

const statusOf = (outcomes: Outcome[], name: string) => outcomes.find((o) => o.name === name)?.status;

const at = (u: string) => ({ host: new URL(u).hostname, port: Number(new URL(u).port) });

describe("the simulator process under the hostile corpus", () => {
  it("answers 4xx or closes, keeps serving, and its memory stays bounded", { timeout: 300_000 }, async () => {
    const [, url] = await proc.waitFor(/service API 1\.5 at (http:\/\/\S+)/);
    const [, regionUrl] = await proc.waitFor(/wrong-region host .*: (http:\/\/\S+)/);
    const token = await bearer(url!);
    expect(await deployment1(url!, token)).toEqual({ status: 200, name: "Production" });
    const before = rssMb(proc.pid);

    const primary: Target = {
      name: "primary",
      ...at(url!),
      bodies: [
        { method: "POST", path: "/api/deployments", headers: { ...V, Authorization: `Bearer ${token}` } },
        { method: "POST", path: "/api/session", headers: V },
        { method: "POST", path: "/__sim/faults", headers: simHookHeaders(url!) },
      ],
    };
    const region: Target = {
      name: "region",
      ...at(regionUrl!),
      bodies: [{ method: "POST", path: "/api/oauth2" }],
    };
    const slow = slowHeaders(primary);
    const outcomes = await sendCorpus([primary]);
    outcomes.push(await slow);
    const regionOutcomes = await sendCorpus([region]);

    expect(unacceptable(outcomes)).toEqual([]);
    // The wrong-region host answers every path with its 302 to the same path on the primary.
    expect(unacceptable(regionOutcomes, [302])).toEqual([]);
    expect(statusOf(regionOutcomes, "region absolute-form target")).toBe(400);
    // The corpus reached what it aims at (so the check above cannot pass on a server that answers nothing).
    expect(statusOf(outcomes, "primary GET //")).toBe(404);
    expect(statusOf(outcomes, "primary 64 KB path")).toBe(431);
    expect(statusOf(outcomes, "primary POST /api/deployments 100k-entry form")).toBe(400);
    expect(statusOf(outcomes, "primary POST /api/deployments 100k-entry JSON")).toBe(400);
    expect(statusOf(outcomes, "primary POST /api/deployments deeply nested JSON (1M levels)")).toBe(400);
    // Refused unread: the 413 is written, but a client still sending may see only the reset.
    expect([413, undefined]).toContain(
      statusOf(outcomes, "primary POST /api/deployments huge declared body (1 GiB)"),
    );
    expect(statusOf(outcomes, "primary POST /api/session 100k-entry multipart")).toBe(400);
    expect([413, undefined]).toContain(
      statusOf(outcomes, "primary POST /__sim/faults huge declared body (1 GiB)"),
    );
    expect(statusOf(regionOutcomes, "region POST /api/oauth2 100k-entry form")).toBe(400);
    expect([408, undefined]).toContain(statusOf(outcomes, "primary slow headers"));

    expect(proc.alive()).toBe(true);
    expect(await deployment1(url!, token)).toEqual({ status: 200, name: "Production" });
    expect((await fetch(`${url}/__sim/stats`, { headers: simHookHeaders(url!) })).status).toBe(200);
    expect((await fetch(`${regionUrl}/api/deployments`, { redirect: "manual" })).status).toBe(302);
    expect(rssMb(proc.pid) - before).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    expect(errorLines(proc.out())).toEqual([]);
  });
});

describe("the simulator's multipart limits, unauthenticated on POST /api/session", () => {
  const session = { method: "POST", path: "/api/session", headers: V };

  it("refuses 64 parts of 1 MiB (over the 20 MiB in all) before reading them all, and keeps serving", async () => {
    const [, url] = await proc.waitFor(/service API 1\.5 at (http:\/\/\S+)/);
    const upload = await multipartUpload(
      { name: "primary", ...at(url!), bodies: [] },
      session,
      64,
      1024 * 1024,
    );
    // The server stopped reading at the limit: the client could not hand over the whole body.
    expect(upload.sent).toBeLessThan(upload.total);
    // Refused unread: the 413 is written, but a client still sending may see only the reset.
    if (upload.status !== undefined) {
      expect(upload.head).toMatch(
        /^HTTP\/1\.1 413 [\s\S]*request body is larger than 20971520 bytes \(the limit\)/,
      );
    }
    expect(proc.alive()).toBe(true);
    expect(await deployment1(url!, await bearer(url!))).toEqual({ status: 200, name: "Production" });
  });

  it("refuses more than 100 parts, naming the limit", async () => {
    const [, url] = await proc.waitFor(/service API 1\.5 at (http:\/\/\S+)/);
    const upload = await multipartUpload({ name: "primary", ...at(url!), bodies: [] }, session, 150, 1);
    expect(upload.status).toBe(400);
    expect(upload.head).toContain("ParameterError: the multipart body has more than 100 parts (the limit)");
    expect(await deployment1(url!, await bearer(url!))).toEqual({ status: 200, name: "Production" });
  });
});
