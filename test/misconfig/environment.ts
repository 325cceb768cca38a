// One misconfiguration case's world: its own devcluster and simulator in this process, the
// operator as a child process (`svc-operator run`), and the ways to break and mend each part.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as k8s from "@kubernetes/client-node";
import { parse, stringify } from "yaml";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { generateTls } from "../../src/devcluster/tls.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { Annotation, GROUP, VERSION } from "../../src/runtime/sdk/index.ts";
import { createSimulator, type Simulator } from "../../src/simulator/server.ts";
import { freePort, OperatorProcess, REFRESH_TOKEN, type Rig } from "../proof/rig.ts";
import { simHook } from "../support/sim-hook.ts";
import type { Break, Fix, MisconfigCase } from "./corpus.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const WRONG_TOKEN = "a-token-the-apiserver-never-issued";
const WRONG_REFRESH_TOKEN = "a-refresh-token-the-service-refuses";

/** The probes: Deployments created before the break, while broken, and after the fix. */
export type Probe = "before" | "during" | "after";

export class CaseEnvironment {
  readonly c: MisconfigCase;
  readonly ns: string;
  cluster: DevCluster | undefined;
  sim!: Simulator;
  operator: OperatorProcess | undefined;
  /** Secrets no line may hold. */
  readonly secrets: string[] = [REFRESH_TOKEN, WRONG_REFRESH_TOKEN];
  readonly probes: Probe[] = [];
  private dir = "";
  private port = 0;
  private kubeconfigPath = "";
  private tokenFile = "";
  private admin!: { custom: k8s.CustomObjectsApi; core: k8s.CoreV1Api };
  private readonly servers: Server[] = [];

  constructor(c: MisconfigCase) {
    this.c = c;
    this.ns = c.name;
  }

  get stateFile(): string {
    return join(this.dir, "devcluster.json");
  }

  /** Everything the case needs before the operator starts, broken already for a `start` case. */
  async prepare(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), `misconfig-${this.ns}-`));
    this.port = await freePort();
    this.sim = await createSimulator();
    const b = this.c.break;
    const starts = this.c.breaks === "start";
    await this.openCluster("deny" in b && starts ? b.deny : undefined);
    const skip = starts && "crdMissing" in b ? b.crdMissing : undefined;
    await this.installCrds(skip);
    await this.admin.core.createNamespace({ body: { metadata: { name: this.ns } } });
    await this.writeSecret(REFRESH_TOKEN, true);
    if (skip !== "accounts") {
      const endpoint = starts && "endpoint" in b ? await this.brokenEndpoint(b.endpoint) : this.sim.url;
      await this.createAccount(endpoint);
      if (starts) await this.createProbe("during");
    }
    this.kubeconfigPath = join(this.dir, "kubeconfig");
    let kubeconfig = this.cluster!.kubeconfig;
    if ("token" in b) kubeconfig = await this.execCredentialKubeconfig();
    if ("kubeconfig" in b) this.kubeconfigPath = join(this.dir, "no-such-dir", "kubeconfig");
    else await writeFile(this.kubeconfigPath, kubeconfig, { mode: 0o600 });
    if (starts && "apiserver" in b) await this.closeCluster();
  }

  /** The operator, as a user runs it: `svc-operator run --kubeconfig ...`. */
  async startOperator(): Promise<void> {
    const env: Record<string, string> = this.c.leaderElect ? { SVC_OPERATOR_LEADER_ELECT: "true" } : {};
    this.operator = new OperatorProcess({ kubeconfigPath: this.kubeconfigPath } as Rig, {}, undefined, env);
    await this.operator.start();
  }

  /** The argv of the operator, for the case that expects it to exit. */
  operatorArgs(): string[] {
    return [
      join(ROOT, "src", "cli.ts"),
      "run",
      "--kubeconfig",
      this.kubeconfigPath,
      "--metrics-address",
      "127.0.0.1:0",
    ];
  }

  /** Breaks a `running` case's environment. */
  async breakNow(b: Break): Promise<void> {
    if ("deny" in b) this.cluster!.deny({ rules: b.deny });
    else if ("apiserver" in b) await this.closeCluster();
    else if ("faults" in b) await this.hook("faults", b.faults);
    else if ("clockAheadSeconds" in b) await this.hook("clock", { advanceSeconds: b.clockAheadSeconds });
    else if ("secret" in b) {
      await this.writeSecret(WRONG_REFRESH_TOKEN, false);
      await this.requestAccountCheck("broken");
    } else throw new Error(`${this.ns}: ${JSON.stringify(b)} cannot break a running operator`);
  }

  async fixNow(f: Fix): Promise<void> {
    if ("installCrd" in f) {
      await this.installCrds(undefined, f.installCrd);
      await this.createAccount(this.sim.url);
    } else if ("allow" in f) this.cluster!.deny({ rules: [] });
    else if ("apiserver" in f) await this.openCluster();
    else if ("token" in f) await writeFile(this.tokenFile, this.cluster!.token);
    else if ("endpoint" in f) await this.patch("accounts", "default", { spec: { endpoint: this.sim.url } });
    else if ("faults" in f) await this.hook("faults", {});
    else if ("secret" in f) {
      await this.writeSecret(REFRESH_TOKEN, false);
      await this.requestAccountCheck("mended");
    }
  }

  async createProbe(probe: Probe): Promise<void> {
    this.probes.push(probe);
    await this.admin.custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: this.ns,
      plural: "deployments",
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: "Deployment",
        metadata: { name: probe },
        spec: { accountRef: { name: "default" }, description: `probe ${probe}` },
      },
    });
  }

  /** The Account or a probe, as the apiserver has it now; undefined while it cannot be read. */
  async read(object: "Account" | Probe): Promise<ManagedObject | undefined> {
    if (!this.cluster) return undefined;
    const plural = object === "Account" ? "accounts" : "deployments";
    const name = object === "Account" ? "default" : object;
    return (await this.admin.custom
      .getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: this.ns, plural, name })
      .catch(() => undefined)) as ManagedObject | undefined;
  }

  /** The simulator's deployments of this case's probes (by name), and its DELETE requests. */
  service(): { deployments: string[]; deletes: number } {
    const records =
      (this.sim.store.snapshot() as unknown as Record<string, { name: string }[]>).deployments ?? [];
    const stats = this.sim.core.stats.report() as { requests: { method: string; count: number }[] };
    return {
      deployments: records.map((r) => r.name).filter((n) => (this.probes as string[]).includes(n)),
      deletes: stats.requests.filter((r) => r.method === "DELETE").reduce((n, r) => n + r.count, 0),
    };
  }

  /** Access tokens the simulator issued (a renewal after the clock moved shows here). */
  tokenGrants(): number {
    const stats = this.sim.core.stats.report() as {
      requests: { method: string; route: string; count: number }[];
    };
    return stats.requests
      .filter((r) => r.method === "POST" && /oauth2/.test(r.route))
      .reduce((n, r) => n + r.count, 0);
  }

  async readyz(): Promise<number> {
    const port = this.operator?.metricsPort;
    return port
      ? fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.status,
          () => 0,
        )
      : 0;
  }

  async close(): Promise<void> {
    await this.operator?.kill("SIGTERM");
    for (const s of this.servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await this.sim?.close();
    await this.closeCluster();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async openCluster(deny?: Extract<Break, { deny: unknown }>["deny"]): Promise<void> {
    this.cluster = await createDevCluster({
      port: this.port,
      stateFile: this.stateFile,
      stateDebounceMs: 50,
      ...(deny ? { deny } : {}),
    });
    if (!this.secrets.includes(this.cluster.token)) this.secrets.push(this.cluster.token);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(this.cluster.kubeconfig);
    this.admin = { custom: kc.makeApiClient(k8s.CustomObjectsApi), core: kc.makeApiClient(k8s.CoreV1Api) };
  }

  private async closeCluster(): Promise<void> {
    const cluster = this.cluster;
    this.cluster = undefined;
    await cluster?.flush();
    await cluster?.close();
  }

  /** crds/, but `skip`; or only `only`. */
  private async installCrds(skip?: string, only?: string): Promise<void> {
    for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
      const crd = parse(await readFile(join(ROOT, "crds", file), "utf8")) as {
        spec: { names: { plural: string } };
      };
      const plural = crd.spec.names.plural;
      if (plural === skip || (only !== undefined && plural !== only)) continue;
      // Raw HTTP: client-node's typed serializer drops the x-kubernetes-* keys of plain objects.
      const res = await fetch(`${this.cluster!.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.cluster!.token}`, "content-type": "application/json" },
        body: JSON.stringify(crd),
      });
      if (res.status !== 201) throw new Error(`CRD ${file}: ${res.status} ${await res.text()}`);
    }
  }

  private async writeSecret(refreshToken: string, create: boolean): Promise<void> {
    const body = { metadata: { name: "svc-credentials" }, stringData: { refreshToken } };
    if (create) await this.admin.core.createNamespacedSecret({ namespace: this.ns, body });
    else await this.admin.core.replaceNamespacedSecret({ name: "svc-credentials", namespace: this.ns, body });
  }

  private async createAccount(endpoint: string): Promise<void> {
    await this.admin.custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: this.ns,
      plural: "accounts",
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: "Account",
        metadata: { name: "default" },
        spec: {
          endpoint,
          accountId: 1,
          oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
        },
      },
    });
  }

  /** Secrets are not watched: a user asks the Account to check its credentials again. */
  private requestAccountCheck(value: string): Promise<unknown> {
    return this.patch("accounts", "default", {
      metadata: { annotations: { [Annotation.reconcileRequestedAt]: value } },
    });
  }

  private patch(plural: string, name: string, body: object): Promise<unknown> {
    return this.admin.custom.patchNamespacedCustomObject(
      { group: GROUP, version: VERSION, namespace: this.ns, plural, name, body },
      k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
    );
  }

  private async hook(name: string, body: unknown): Promise<void> {
    const res = await simHook(this.sim, name, body);
    if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`);
  }

  /** An endpoint that is not the service: refused, untrusted TLS, unresolvable, a captive page. */
  private async brokenEndpoint(kind: "refused" | "tls" | "unresolvable" | "html"): Promise<string> {
    if (kind === "refused") return `http://127.0.0.1:${await freePort()}`;
    // `.invalid` never resolves (RFC 2606).
    if (kind === "unresolvable") return "https://svc-operator-misconfig.invalid";
    const server =
      kind === "tls"
        ? createHttpsServer(await generateTls("127.0.0.1"), (_req, res) => res.end("{}"))
        : createHttpServer((_req, res) => {
            res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
            res.end(
              "<html><body><h1>Welcome to the hotel network</h1><a href=/login>Log in</a></body></html>",
            );
          });
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    return `${kind === "tls" ? "https" : "http"}://127.0.0.1:${port}`;
  }

  /**
   * A kubeconfig whose user gets its token from an exec credential plugin (as EKS's and GKE's do)
   * that reads a file and says it expires in two seconds: a token mended in the file is used
   * without a restart. It starts out holding a token the apiserver never issued.
   */
  private async execCredentialKubeconfig(): Promise<string> {
    this.tokenFile = join(this.dir, "token");
    await writeFile(this.tokenFile, WRONG_TOKEN, { mode: 0o600 });
    this.secrets.push(WRONG_TOKEN);
    const config = parse(this.cluster!.kubeconfig) as { users: { user: Record<string, unknown> }[] };
    const credential =
      'printf \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}\' ' +
      `"$(cat '${this.tokenFile}')" "$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)"`;
    config.users[0]!.user = {
      exec: { apiVersion: "client.authentication.k8s.io/v1", command: "sh", args: ["-c", credential] },
    };
    return stringify(config);
  }
}
