import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  applyCrd,
  applyManifest,
  type Collection,
  collectionPath,
  type Manifest,
} from "../../src/dev/apply.ts";
import { KubeHttp } from "../../src/dev/kube-http.ts";
import { LAST_APPLIED, lastAppliedConfiguration } from "../../src/dev/last-applied.ts";
import {
  applySamples,
  checkSamples,
  loadSampleDocuments,
  type Sample,
  SUPPORT_KINDS,
} from "../../src/dev/samples.ts";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { crdSources } from "../../src/kinds/index.ts";
import { buildCrd } from "../../src/runtime/crd/index.ts";
import { GROUP } from "../../src/runtime/sdk/index.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SAMPLES = join(ROOT, "deploy", "samples");
const NUDGE = "cloud.svc.io/reconcile-requested-at";

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  return undefined;
}
const kubectlPath = onPath("kubectl");

// What kubectl v1.32 stored for `kubectl apply -n demo -f deploy/samples/00-deployment.yaml`.
const KUBECTL_WEB =
  '{"apiVersion":"cloud.svc.io/v1alpha1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"demo"},"spec":{"description":"Web tier of the demo shop","inputs":{"APP_ENV":"text:demo","SYSLOG_HOST":"text:logs.demo.example.com"},"locked":false,"serverTagScope":"deployment"}}\n';

let cluster: DevCluster;
let kube: KubeHttp;
let dir: string;
const collections = new Map<string, Collection>(
  crdSources().map((s) => [s.kind, { plural: s.plural, namespaced: true }]),
);

/** Samples as dev applies them: into a namespace of its choice. */
async function samplesIn(namespace: string, from = SAMPLES): Promise<Sample[]> {
  return (await loadSampleDocuments(from, new Set(collections.keys()), GROUP)).map((s) => ({
    ...s,
    manifest: { ...s.manifest, metadata: { ...s.manifest.metadata, namespace } },
  }));
}

/** A sample as stored, or a ConfigMap beside them (SUPPORT_KINDS). */
async function get(namespace: string, m: Manifest): Promise<{ status: number; body: Manifest }> {
  const c = (collections.get(m.kind) ?? SUPPORT_KINDS.get(m.kind))!;
  const res = await kube.call(
    "GET",
    collectionPath({ ...m, metadata: { ...m.metadata, namespace } }, c, m.metadata.name),
  );
  return res as { status: number; body: Manifest };
}

async function namespace(name: string): Promise<void> {
  await applyManifest(
    kube,
    { apiVersion: "v1", kind: "Namespace", metadata: { name } },
    { plural: "namespaces", namespaced: false },
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dev-apply-"));
  cluster = await createDevCluster({ tls: true, kubeconfigPath: join(dir, "config") });
  kube = new KubeHttp({ url: cluster.url, token: cluster.token, caCert: cluster.caCert });
});
afterAll(async () => {
  await kube?.close();
  await cluster?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("dev applies CRDs and samples as kubectl apply does", () => {
  it("CRDs: created with the annotation kubectl computes from crds/*.yaml, then unchanged", async () => {
    for (const source of crdSources())
      expect(await applyCrd(kube, buildCrd(source) as Manifest)).toBe("created");
    for (const source of crdSources()) {
      const crd = buildCrd(source) as Manifest;
      const stored = (
        await kube.expect(
          "GET",
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
        )
      ).body as Manifest;
      // What kubectl computes from the file it would apply (the encoder is pinned to kubectl's own
      // output in src/dev/last-applied.test.ts): the same text, not just the same JSON.
      const file = parse(await readFile(join(ROOT, "crds", `${source.kind.toLowerCase()}.yaml`), "utf8"));
      expect(stored.metadata.annotations?.[LAST_APPLIED], source.kind).toBe(lastAppliedConfiguration(file));
      expect(await applyCrd(kube, crd)).toBe("unchanged");
    }
  });

  it("samples: the stored annotation is what kubectl writes; dev's nudge is not part of it", async () => {
    await namespace("demo");
    const samples = await samplesIn("demo");
    await applySamples(kube, samples, collections, { extraAnnotations: { [NUDGE]: "first" } });
    for (const s of samples) {
      const { body } = await get("demo", s.manifest);
      const annotations = body.metadata.annotations!;
      expect(annotations[NUDGE]).toBe("first");
      const recorded = JSON.parse(annotations[LAST_APPLIED]!);
      expect(recorded, `${s.manifest.kind}/${s.manifest.metadata.name}`).toEqual({
        ...s.manifest,
        metadata: { ...s.manifest.metadata, annotations: {} },
      });
    }
    const web = samples.find((s) => s.manifest.kind === "Deployment")!;
    expect((await get("demo", web.manifest)).body.metadata.annotations![LAST_APPLIED]).toBe(KUBECTL_WEB);
  });

  it("applying again changes only the nudge; kubectl's annotation stays as it was", async () => {
    const samples = await samplesIn("demo");
    const before = await get("demo", samples[0]!.manifest);
    await applySamples(kube, samples, collections, { extraAnnotations: { [NUDGE]: "second" } });
    const after = await get("demo", samples[0]!.manifest);
    expect(after.body.metadata.annotations![NUDGE]).toBe("second");
    expect(after.body.metadata.annotations![LAST_APPLIED]).toBe(
      before.body.metadata.annotations![LAST_APPLIED],
    );
    expect(await applyManifest(kube, samples[0]!.manifest, collections.get(samples[0]!.manifest.kind)!)).toBe(
      "unchanged",
    );
  });

  it("a field dropped from the file is removed; what others wrote stays", async () => {
    await namespace("drop");
    const [web] = (await samplesIn("drop")).filter((s) => s.manifest.kind === "Deployment");
    const c = collections.get("Deployment")!;
    await applyManifest(kube, web!.manifest, c);
    const path = `/apis/${GROUP}/v1alpha1/namespaces/drop/deployments/web`;
    await kube.expect(
      "PATCH",
      path,
      { metadata: { labels: { team: "a" } } },
      { contentType: "application/merge-patch+json" },
    );
    const { description: _gone, ...spec } = web!.manifest.spec as Record<string, unknown>;
    expect(await applyManifest(kube, { ...web!.manifest, spec }, c)).toBe("configured");
    const { body } = await get("drop", web!.manifest);
    expect((body.spec as Record<string, unknown>).description).toBeUndefined();
    expect(body.metadata.labels).toEqual({ team: "a" });
  });

  it("a Secret is applied without the annotation, which would repeat its values in plain text", async () => {
    const secret: Manifest = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "creds", namespace: "demo" },
      stringData: { token: "s3cret-value" },
    };
    const c = { plural: "secrets", namespaced: true };
    expect(await applyManifest(kube, secret, c, { lastApplied: false })).toBe("created");
    await applyManifest(kube, secret, c, { lastApplied: false }); // and when it exists
    const stored = (await kube.expect("GET", "/api/v1/namespaces/demo/secrets/creds")).body as Manifest;
    expect(JSON.stringify(stored.metadata)).not.toContain("s3cret-value");
  });

  it("a document the schema refuses: named by file, document and field; the check writes nothing", async () => {
    await namespace("bad");
    const bad = join(dir, "bad-samples");
    await cp(SAMPLES, bad, { recursive: true });
    const file = join(bad, "10-network.yaml");
    await writeFile(
      file,
      (await readFile(file, "utf8")).replace("cidrBlock: 10.10.2.0/24", "cidrBlock: not-a-cidr"),
    );
    const samples = await samplesIn("bad", bad);
    const error = await checkSamples(kube, samples, collections).catch((e: Error) => e);
    expect(error).toMatchObject({ name: "SampleError" });
    expect((error as Error).message).toContain(
      `${file} (document 5, Subnet/main-b): spec.cidrBlock: Invalid value: "string": must be an IPv4 CIDR block such as 10.0.0.0/16`,
    );
    expect((error as Error).message).toMatch(/refused 1 of \d+ samples, so none was applied/);
    for (const s of samples)
      expect((await get("bad", s.manifest)).status, s.manifest.metadata.name).toBe(404);
  });

  it.skipIf(!kubectlPath)(
    "kubectl apply -f of the same files afterwards is silent and changes nothing",
    async () => {
      const kubectl = (args: string[]) =>
        new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
          execFile(
            kubectlPath!,
            [`--kubeconfig=${join(dir, "config")}`, `--cache-dir=${join(dir, "cache")}`, ...args],
            { timeout: 60_000 },
            (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
          );
        });
      for (const args of [
        ["apply", "-n", "demo", "-f", SAMPLES],
        ["apply", "-f", join(ROOT, "crds")],
        ["apply", "-k", join(ROOT, "crds")],
      ]) {
        const run = await kubectl(args);
        expect(run.stderr, args.join(" ")).toBe("");
        expect(run.code).toBe(0);
        const lines = run.stdout.trim().split("\n");
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expect(line, args.join(" ")).toMatch(/ unchanged$/);
      }
    },
  );
});
