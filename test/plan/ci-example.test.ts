import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import { shellBlocks } from "../docs/markdown.ts";
import { missingLines } from "../docs/output.ts";
import { applyDirectory, cli, exportedStack } from "../export/rig.ts";
import { type Stack, serviceApi, startOperator, waitForConditionWith } from "../operator/harness.ts";

const NS = "team-a";
const DOC = join(import.meta.dirname, "..", "..", "docs", "plan-in-ci.md");

type Doc = {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
};

/**
 * A team's manifests planned against a cluster that holds them, Ready (an operator reconciled
 * them): the example of docs/plan-in-ci.md, and what a manifest that cannot be applied does to the
 * manifests that reference it.
 */
describe("plan against a cluster that holds the objects, Ready", () => {
  let stack: Stack;
  let exported: string;
  let kubeconfig: string;
  let archive: string;
  const read = async (file: string) => parse(await readFile(join(exported, file), "utf8")) as Doc;

  /** Plans `docs`, written as one file of a directory, against the cluster. */
  async function plan(docs: unknown[]) {
    const dir = await mkdtemp(join(tmpdir(), "svc-plan-ci-"));
    await writeFile(join(dir, "team-a.yaml"), docs.map((d) => stringify(d)).join("---\n"));
    return cli(["plan", "-f", dir, "--kubeconfig", kubeconfig]);
  }

  beforeAll(async () => {
    ({ stack, dir: exported, kubeconfig } = await exportedStack(NS, ["--layout", "object"]));
    await startOperator(stack);
    for (const m of await applyDirectory(stack, exported))
      if (m.kind !== "Account")
        await waitForConditionWith(stack, NS, m.kind, m.metadata.name, "Ready", "True", {
          timeoutMs: 30_000,
        });
    // A volume made in the service by hand, which a manifest then adopts by its href.
    archive = await serviceApi(stack).volumes.create("/api/clouds/1", {
      name: "archive",
      size: 10,
      datacenter_href: "/api/clouds/1/datacenters/1",
      volume_type_href: "/api/clouds/1/volume_types/1",
    } as never);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("prints the example of docs/plan-in-ci.md: the children of an invalid Network it holds Ready get their own action, waiting on it", async () => {
    const web = await read("deployments/web.yaml");
    web.spec.description = "Web tier, v2";
    const main = await read("networks/main.yaml");
    main.spec.cidrBlock = "10.11.0.0/16";
    const mainB = await read("subnets/main-b.yaml");
    mainB.spec.description = "zone B";
    const route = await read("routes/route-3.yaml");
    route.spec.nextHopUrl = "https://hop.example.com/b";
    const data = await read("volumes/data.yaml");
    data.spec.size = 20;
    const kind = (k: string) => ({ apiVersion: "cloud.svc.io/v1alpha1", kind: k });
    const r = await plan([
      web,
      {
        ...kind("Network"),
        metadata: { name: "edge", namespace: NS },
        spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.70.0.0/16" },
      },
      {
        ...kind("Subnet"),
        metadata: { name: "edge-a", namespace: NS },
        spec: {
          networkRef: { name: "edge" },
          cidrBlock: "10.70.1.0/24",
          datacenterHref: "/api/clouds/1/datacenters/1",
        },
      },
      route,
      main,
      mainB,
      await read("subnets/main-a.yaml"),
      data,
      {
        ...kind("Volume"),
        metadata: { name: "archive", namespace: NS, annotations: { [Annotation.href]: archive } },
        spec: { ...data.spec, name: "archive", size: 20, deploymentRef: undefined, description: undefined },
      },
      {
        ...kind("Subnet"),
        metadata: { name: "bad", namespace: NS },
        spec: { networkRef: { name: "main" }, networkHref: "/api/networks/1", cidrBlock: "10.10.9.0/24" },
      },
      await read("deployments/batch-jobs.yaml"),
    ]);
    const block = shellBlocks(DOC, await readFile(DOC, "utf8")).find((b) =>
      b.commands.some((c) => c.text.includes("svc-operator plan -f deploy/team-a/")),
    );
    expect(missingLines(block!.output!.text, r.out)).toEqual([]);
    expect(r.out.split("\n").filter((l) => l.trim())).toHaveLength(
      block!.output!.text.split("\n").filter((l) => l.trim()).length,
    );
    expect(r.code).toBe(1);
  });

  it("blocks the children of a manifest that cannot be applied when the cluster holds it not Ready", async () => {
    const kind = (k: string) => ({ apiVersion: "cloud.svc.io/v1alpha1", kind: k });
    const r = await plan([
      {
        ...kind("Network"),
        metadata: { name: "broken", namespace: NS },
        spec: { cidrBlock: "10.80.0.0/16" },
      },
      {
        ...kind("Subnet"),
        metadata: { name: "broken-a", namespace: NS },
        spec: {
          networkRef: { name: "broken" },
          cidrBlock: "10.80.1.0/24",
          datacenterHref: "/api/clouds/1/datacenters/1",
        },
      },
    ]);
    expect(r.out).toMatch(/^invalid +Network team-a\/broken +spec\.cloudHref: /m);
    expect(r.out).toMatch(
      /^blocked +Subnet team-a\/broken-a +spec\.networkRef: Network broken is invalid: fix it first$/m,
    );
    expect(r.code).toBe(1);
  });
});
