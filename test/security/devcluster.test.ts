// Issue 22 item 1: the devcluster process (HTTPS, as the CLI serves it) answers the hostile corpus
// with a 4xx or a closed connection, anonymous or with its token, keeps serving, stays within its
// memory bound, and no request reaches the 500 path (no error line in its log).
import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { type Outcome, sendCorpus, slowHeaders, type Target, unacceptable } from "./corpus.ts";
import { errorLines, RSS_GROWTH_LIMIT_MB, rssMb, spawnCli } from "./processes.ts";

const TOKEN = "security-corpus-token-0123456789";
const proc = spawnCli(["devcluster", "--port", "0", "--token", TOKEN]);
// The server's certificate is self-signed; what is tested here is not TLS.
const agent = new Agent({ connect: { rejectUnauthorized: false } });
afterAll(async () => {
  await proc.stop();
  await agent.close();
});

const auth = { Authorization: `Bearer ${TOKEN}` };

async function namespaces(url: string): Promise<{ status: number; names: string[] }> {
  const res = await request(`${url}/api/v1/namespaces`, { dispatcher: agent, headers: auth });
  const body = (await res.body.json()) as { items?: Array<{ metadata: { name: string } }> };
  return { status: res.statusCode, names: (body.items ?? []).map((n) => n.metadata.name) };
}

const statusOf = (outcomes: Outcome[], name: string) => outcomes.find((o) => o.name === name)?.status;

describe("the devcluster process under the hostile corpus", () => {
  it("answers 4xx or closes, keeps serving, and its memory stays bounded", { timeout: 300_000 }, async () => {
    const [, url] = await proc.waitFor(/devcluster listening on (https:\/\/\S+)/);
    expect((await namespaces(url!)).names).toContain("default");
    const before = rssMb(proc.pid);

    const configmaps = "/api/v1/namespaces/default/configmaps";
    const target: Target = {
      name: "devcluster",
      host: new URL(url!).hostname,
      port: Number(new URL(url!).port),
      tls: true,
      bodies: [
        { method: "POST", path: configmaps, headers: auth },
        { method: "PUT", path: `${configmaps}/x`, headers: auth },
        { method: "DELETE", path: `${configmaps}/x`, headers: auth },
        { method: "POST", path: configmaps, label: "anonymous POST" },
      ],
    };
    const slow = slowHeaders(target);
    const outcomes = await sendCorpus([target]);
    outcomes.push(await slow);

    expect(unacceptable(outcomes)).toEqual([]);
    // The corpus reached what it aims at (so the check above cannot pass on a server that answers nothing).
    expect(statusOf(outcomes, "devcluster GET //")).toBe(401);
    expect(statusOf(outcomes, "devcluster 64 KB path")).toBe(431);
    expect(statusOf(outcomes, `devcluster POST ${configmaps} deeply nested JSON (1M levels)`)).toBe(400);
    expect(statusOf(outcomes, `devcluster DELETE ${configmaps}/x deeply nested JSON (1M levels)`)).toBe(400);
    expect(statusOf(outcomes, `devcluster POST ${configmaps} 100k-entry form`)).toBe(415);
    expect(statusOf(outcomes, `devcluster POST ${configmaps} malformed JSON`)).toBe(400);
    expect(statusOf(outcomes, `devcluster POST ${configmaps} 100k-entry JSON`)).toBeGreaterThanOrEqual(400);
    expect(statusOf(outcomes, "devcluster anonymous POST 100k-entry JSON")).toBe(401);
    expect(statusOf(outcomes, `devcluster POST ${configmaps} malformed multipart`)).toBe(415);
    expect([408, undefined]).toContain(statusOf(outcomes, "devcluster slow headers"));

    expect(proc.alive()).toBe(true);
    expect(await namespaces(url!)).toEqual({ status: 200, names: expect.arrayContaining(["default"]) });
    expect(rssMb(proc.pid) - before).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    expect(errorLines(proc.err())).toEqual([]);
  });
});
