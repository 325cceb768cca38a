// Issue 16 item 2: the operator in a broken environment. Each case of test/fixtures/misconfig/
// starts the operator (a child process) against its own devcluster and simulator, breaks what the
// file says (before the start or once it runs), and asserts: one clear line naming the cause and
// the fix; few lines over the broken window, however many retries it makes; and, once mended,
// recovery without a restart (the same process reconciles a new resource, /readyz passes).
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { until } from "../proof/rig.ts";
import { loadMisconfigCases, type MisconfigCase } from "./corpus.ts";
import { CaseEnvironment, type Probe } from "./environment.ts";

const cases = await loadMisconfigCases();

const ready = (o: ManagedObject | undefined) =>
  o?.status?.observedGeneration === o?.metadata.generation &&
  o?.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;

/** What no line may ever hold: a stack, client-node's exception (headers, a body escaped twice). */
const UNREADABLE = [/"stack"/, /HTTP-Code/, /"headers"|Headers:/, /\\\\"/];

const levelOf = (line: string) => {
  try {
    return (JSON.parse(line) as { level?: number }).level ?? 0;
  } catch {
    return 50; // not JSON: something printed outside the logger
  }
};

async function expectExit(env: CaseEnvironment, c: MisconfigCase): Promise<void> {
  const child = spawn(process.execPath, env.operatorArgs(), { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const lines = output.trim().split("\n");
  expect(code, output).toBe(c.expect.exit);
  expect(
    lines.filter((l) => l.includes(c.expect.log!)),
    output,
  ).toHaveLength(1);
  expect(lines.length, output).toBeLessThanOrEqual(c.expect.maxLines);
}

async function runCase(c: MisconfigCase): Promise<void> {
  const env = new CaseEnvironment(c);
  try {
    await env.prepare();
    if (c.expect.exit !== undefined) return await expectExit(env, c);
    await env.startOperator();
    const op = env.operator!;
    const all = () => op.lines.join("\n");
    let from = 0;
    let brokeAt = Date.now();
    if (c.breaks === "running") {
      await env.createProbe("before");
      await until(
        `${c.name}: converged`,
        async () => ready(await env.read("Account")) && ready(await env.read("before")),
        30_000,
        200,
      );
      from = op.lines.length;
      brokeAt = Date.now();
      await env.breakNow(c.break);
      if (!("apiserver" in c.break)) await env.createProbe("during");
    }
    const grants = env.tokenGrants();

    // While broken: the line, the condition, /readyz.
    const fragment = c.expect.log;
    if (fragment)
      await until(`${c.name}: the line "${fragment}"`, async () => all().includes(fragment), 30_000, 100);
    else
      await until(
        `${c.name}: the probe converged while broken`,
        async () => ready(await env.read("during")),
        30_000,
        200,
      );
    const cond = c.expect.condition;
    if (cond) {
      let last: ManagedObject | undefined;
      await until(
        `${c.name}: ${cond.object} ${cond.reason} "${cond.message}"`,
        async () => {
          last = await env.read(cond.object);
          const r = last?.status?.conditions?.find((x) => x.type === "Ready");
          return r?.status === "False" && r.reason === cond.reason && r.message.includes(cond.message);
        },
        30_000,
        200,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; conditions: ${JSON.stringify(last?.status?.conditions)}`);
      });
    }
    if (c.expect.unready) expect(await env.readyz(), all()).toBe(503);
    await sleep(c.holdSeconds * 1000);
    if (c.expect.unready) expect(await env.readyz(), all()).toBe(503);
    if (c.expect.renewsToken) expect(env.tokenGrants()).toBeGreaterThan(grants);

    const to = op.lines.length;
    const broken = op.lines.slice(from, to);
    const text = broken.join("\n");
    // The one line, at warn (a resource's condition and event may quote it, at info), repeated at
    // most once a minute while the cause lasts.
    const minutes = Math.floor((Date.now() - brokeAt) / 60_000);
    if (fragment) {
      const said = broken.filter((l) => l.includes(fragment) && levelOf(l) >= 40);
      expect(said.length, text).toBeGreaterThanOrEqual(1);
      expect(said.length, text).toBeLessThanOrEqual(1 + minutes);
    } else
      expect(
        broken.filter((l) => levelOf(l) >= 40),
        text,
      ).toEqual([]);
    expect(broken.length, text).toBeLessThanOrEqual(c.expect.maxLines * (1 + minutes));

    // Mended: the same process recovers, reconciles a new resource, and says it recovered.
    if (c.fix) await env.fixNow(c.fix);
    await env.createProbe("after");
    const probes = [...env.probes];
    await until(
      `${c.name}: recovered`,
      async () => {
        if ((await env.readyz()) !== 200 || !ready(await env.read("Account"))) return false;
        for (const p of probes) if (!ready(await env.read(p as Probe))) return false;
        return true;
      },
      45_000,
      200,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${op.lines.slice(-15).join("\n")}`);
    });
    expect(op.starts).toBe(1);
    expect(op.child?.exitCode).toBeNull();
    // The line comes after the status write that made the probes Ready: waited for, not raced.
    if (fragment)
      await until(
        `${c.name}: the problem logged as resolved`,
        async () => op.lines.slice(to).some((l) => l.includes('"problem":"resolved"')),
        10_000,
        100,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${all()}`);
      });
    // One service object per probe, never a second, and nothing deleted.
    const service = env.service();
    expect(service.deployments.sort()).toEqual([...probes].sort());
    expect(service.deletes).toBe(0);
    // Every line readable, and no credential in any.
    for (const pattern of UNREADABLE) expect(all(), String(pattern)).not.toMatch(pattern);
    for (const secret of env.secrets) expect(all().includes(secret), "a credential was logged").toBe(false);
  } finally {
    // MISCONFIG_LOG=1 prints each case's log (what the docs quote).
    if (process.env.MISCONFIG_LOG) console.log(`--- ${c.name}\n${env.operator?.lines.join("\n") ?? ""}`);
    await env.close();
  }
}

describe("misconfiguration corpus", () => {
  it("holds every broken environment of issue 16", () => {
    const kinds = cases.map((c) => Object.entries(c.break)[0]!.join(" "));
    for (const k of [
      /^crdMissing/,
      /^deny/,
      /^apiserver down/,
      /^token refused/,
      /^kubeconfig missing/,
      /^endpoint refused/,
      /^endpoint tls/,
      /^endpoint unresolvable/,
      /^endpoint html/,
      /^faults/,
      /^clockAheadSeconds/,
      /^secret wrong/,
    ])
      expect(
        kinds.some((x) => k.test(x)),
        String(k),
      ).toBe(true);
    // The apiserver unreachable both at start and mid-run.
    expect(
      cases
        .filter((c) => "apiserver" in c.break)
        .map((c) => c.breaks)
        .sort(),
    ).toEqual(["running", "start"]);
  });

  describe.concurrent("each case", () => {
    for (const c of cases) it(c.name, () => runCase(c), 120_000);
  });
});
