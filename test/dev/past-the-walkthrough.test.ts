import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellBlocks } from "../docs/markdown.ts";
import { type Playground, ROOT, startPlayground } from "../docs/playground.ts";
import { onPath, readerEnv, runShell } from "../docs/shell.ts";
import { simHook } from "../support/sim-hook.ts";

/**
 * The playground one step past the walkthrough, as a user takes it with kubectl: write a
 * manifest from the hrefs the banner lists, edit the sample Deployment's inputs and apply, and
 * after `kubectl delete namespace demo` bring the namespace back with README's command.
 */

const exec = promisify(execFile);
const kubectl = onPath("kubectl");
const edited = mkdtempSync(join(tmpdir(), "svc-operator-dev-edited-samples-"));

afterAll(() => {
  rmSync(edited, { recursive: true, force: true });
});

interface Deployment {
  status?: {
    href?: string;
    atProvider?: { inputs?: Record<string, string> };
    conditions?: { type: string; status: string; reason: string }[];
  };
}

/** Polls `probe` every 250 ms until it answers, or fails naming `what` after `ms`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(250);
  }
}

describe.skipIf(!kubectl)("svc-operator dev, one step past the walkthrough (kubectl)", () => {
  let playground: Playground;
  let env: NodeJS.ProcessEnv;
  let hooks: { url: string; hookToken: string };

  beforeAll(async () => {
    playground = await startPlayground();
    env = { ...process.env, KUBECONFIG: playground.kubeconfig };
    const [, url, tokenFile] =
      /simulator test hooks: (\S+)\/__sim\/\.\.\., header X-Simulator-Token from (\S+)/.exec(
        playground.lines.join("\n"),
      )!;
    hooks = { url: url!, hookToken: readFileSync(tokenFile!, "utf8").trim() };
  }, 120_000);

  afterAll(async () => {
    expect(await playground?.stop()).toBe(0);
  }, 60_000);

  const deployment = async () =>
    JSON.parse(
      (await exec(kubectl!, ["get", "deployments.cloud.svc.io", "web", "-n", "demo", "-o", "json"], { env }))
        .stdout,
    ) as Deployment;
  const ready = (d: Deployment) => d.status?.conditions?.find((c) => c.type === "Ready");
  /** The inputs of deployment `web` as the simulator holds them. */
  const serviceInputs = async () => {
    const state = (await (await simHook(hooks, "state")).json()) as {
      deployments: { name: string; inputs: { name: string; value: string }[] }[];
    };
    const web = state.deployments.find((d) => d.name === "web");
    return Object.fromEntries((web?.inputs ?? []).map((i) => [i.name, i.value]));
  };

  it("the banner lists the hrefs a manifest of one's own names: clouds, datacenters, servers, volume types, users", () => {
    for (const line of [
      "In the simulator, for your own manifests (docs/dev.md#what-the-simulator-holds):",
      "  clouds        /api/clouds/1 (EC2 us-east-1), /api/clouds/2 (OpenStack Lab)",
      "  datacenters   /api/clouds/1/datacenters/1 (us-east-1a), /api/clouds/1/datacenters/2 (us-east-1b), /api/clouds/2/datacenters/3 (nova)",
      "  servers       /api/servers/1 (app-1), /api/servers/2 (app-2 (stopped))",
      "  volume types  /api/clouds/1/volume_types/1 (standard), /api/clouds/1/volume_types/2 (io1), /api/clouds/2/volume_types/3 (ssd)",
      "  users         /api/users/1 (admin@example.com), /api/users/2 (user2@example.com)",
    ])
      expect(playground.lines).toContain(line);
  });

  it("the sample Deployment's inputs are the deployment's own: applied, and an edit of the sample is applied too", {
    timeout: 90_000,
  }, async () => {
    const first = await deployment();
    expect(ready(first)?.reason).toBe("Available");
    const sample = { APP_ENV: "text:demo", SYSLOG_HOST: "text:logs.demo.example.com" };
    expect(first.status?.atProvider?.inputs).toMatchObject(sample);
    expect(await serviceInputs()).toMatchObject(sample);

    // Edit the sample and apply the folder, as docs/dev.md says: the service follows.
    cpSync(join(ROOT, "deploy", "samples"), edited, { recursive: true });
    const file = join(edited, "00-deployment.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace('APP_ENV: "text:demo"', 'APP_ENV: "text:edited"'));
    await exec(kubectl!, ["apply", "-n", "demo", "-f", edited], { env });
    expect(
      await until("the edited input in the service", async () => {
        const inputs = await serviceInputs();
        return inputs.APP_ENV === "text:edited" ? inputs : undefined;
      }),
    ).toMatchObject({ ...sample, APP_ENV: "text:edited" });
    const after = await until("the edit reported", async () => {
      const d = await deployment();
      return d.status?.atProvider?.inputs?.APP_ENV === "text:edited" ? d : undefined;
    });
    expect(ready(after)?.reason).toBe("Available");
  });

  it("after kubectl delete namespace demo, README's one command brings it back, every sample Ready; the banner prints it", {
    timeout: 200_000,
  }, async () => {
    const banner = playground.lines.join("\n");
    const { stdout: before } = await exec(kubectl!, ["get", "svccloud", "-n", "demo", "-o", "name"], { env });
    const firstHref = (await deployment()).status?.href;
    expect(banner).toContain(
      `  kubectl apply -n demo -f ${join(playground.cwd, ".svc-operator", "demo.yaml")} -f ${join(ROOT, "deploy", "samples")}`,
    );

    // README's troubleshooting block, as written.
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = shellBlocks("README.md", readme, ["Troubleshooting"]).find((b) =>
      b.commands.some((c) => c.text.startsWith("kubectl delete namespace demo")),
    );
    expect(block?.commands.map((c) => c.text)).toEqual([
      "kubectl delete namespace demo",
      'kubectl apply -n demo -f "$(dirname "$KUBECONFIG")/demo.yaml" -f deploy/samples/',
    ]);
    for (const command of block!.commands) {
      const result = await runShell(command.text, {
        cwd: ROOT,
        env: readerEnv({ KUBECONFIG: playground.kubeconfig }),
        timeoutMs: 90_000,
      });
      expect(result.code, `${command.text}\n${result.output}`).toBe(0);
    }
    await exec(
      kubectl!,
      ["wait", "--for=condition=Ready", "svccloud", "--all", "-n", "demo", "--timeout=90s"],
      {
        env,
      },
    );
    const { stdout: after } = await exec(kubectl!, ["get", "svccloud", "-n", "demo", "-o", "name"], { env });
    expect(after.trim().split("\n").sort()).toEqual(before.trim().split("\n").sort());
    // Made anew in the service: the old one went with the namespace.
    const href = (await deployment()).status?.href;
    expect(href).toMatch(/^\/api\/deployments\/\d+$/);
    expect(href).not.toBe(firstHref);
  });
});
