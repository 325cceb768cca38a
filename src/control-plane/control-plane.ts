import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Certificates, makeCertificates } from "./certificates.ts";
import { type Child, freePort, startChild, waitUntil } from "./processes.ts";

/** A running kube-apiserver and its etcd, as controller-runtime's envtest starts them. */
export interface ControlPlane {
  /** The apiserver's https URL on 127.0.0.1. */
  url: string;
  /** A kubeconfig (YAML) of the admin: a client certificate in `system:masters`. */
  kubeconfig: string;
  /** The CA that signed the apiserver's serving certificate (PEM). */
  ca: string;
  /** A bearer token of the admin (`system:masters`), for clients that take no certificate. */
  token: string;
  /** Stops both processes and removes their files. */
  stop(): Promise<void>;
}

/** The binaries `KUBEBUILDER_ASSETS` must hold, as `setup-envtest` lays them out. */
export const CONTROL_PLANE_BINARIES = ["kube-apiserver", "etcd"] as const;

/** What is missing from `assets` to start a control plane, or undefined when nothing is. */
export function missingBinaries(assets: string): string | undefined {
  const missing = CONTROL_PLANE_BINARIES.filter((b) => !existsSync(join(assets, b)));
  return missing.length ? `${assets} holds no ${missing.join(" or ")}` : undefined;
}

/** Where the apiserver listens: a free loopback port unless told (0 = a free one too). */
export interface ControlPlaneOptions {
  host?: string;
  port?: number;
}

/**
 * Starts etcd and kube-apiserver from the folder `assets` (KUBEBUILDER_ASSETS): loopback ports,
 * throwaway certificates, RBAC on, everything under one temporary folder. A bare apiserver, as
 * envtest's: no controller-manager finishes a namespace deletion or collects garbage.
 */
export async function startControlPlane(
  assets: string,
  options: ControlPlaneOptions = {},
): Promise<ControlPlane> {
  const missing = missingBinaries(assets);
  if (missing) throw new Error(`cannot start a control plane: ${missing}`);
  const dir = await mkdtemp(join(tmpdir(), "svc-operator-control-plane-"));
  const children: Child[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await child.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const host = options.host ?? "127.0.0.1";
    const certificates = await makeCertificates(dir, host);
    const etcdUrl = await startEtcd(assets, dir, children);
    const port = options.port || (await freePort());
    const ca = await readFile(certificates.caCert, "utf8");
    // Bound to every address, it is still reached on loopback.
    const url = `https://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
    // A static token beside the certificate: some clients (the playground's) speak bearer tokens.
    const token = randomBytes(24).toString("hex");
    const tokens = join(dir, "tokens.csv");
    await writeFile(tokens, `${token},admin,admin,"system:masters"\n`, { mode: 0o600 });
    const args = [...apiserverArgs(certificates, etcdUrl, host, port), `--token-auth-file=${tokens}`];
    const apiserver = startChild("kube-apiserver", join(assets, "kube-apiserver"), args);
    children.push(apiserver);
    await waitUntil(apiserver, "ready", () => ready(url, ca), 60_000);
    return { url, ca, token, kubeconfig: await adminKubeconfig(url, certificates), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startEtcd(assets: string, dir: string, children: Child[]): Promise<string> {
  const [client, peer] = [await freePort(), await freePort()];
  const clientUrl = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const etcd = startChild("etcd", join(assets, "etcd"), [
    "--name=t",
    `--data-dir=${join(dir, "etcd")}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=t=${peerUrl}`,
    "--unsafe-no-fsync=true",
  ]);
  children.push(etcd);
  await waitUntil(etcd, "healthy", async () => (await fetch(`${clientUrl}/health`)).ok, 30_000);
  return clientUrl;
}

function apiserverArgs(c: Certificates, etcdUrl: string, host: string, port: number): string[] {
  return [
    `--etcd-servers=${etcdUrl}`,
    `--tls-cert-file=${c.servingCert}`,
    `--tls-private-key-file=${c.servingKey}`,
    `--client-ca-file=${c.caCert}`,
    `--service-account-key-file=${c.serviceAccountPublicKey}`,
    `--service-account-signing-key-file=${c.serviceAccountKey}`,
    "--service-account-issuer=https://kubernetes.default.svc",
    "--service-cluster-ip-range=10.0.0.0/24",
    `--bind-address=${host}`,
    "--advertise-address=127.0.0.1",
    `--secure-port=${port}`,
    "--endpoint-reconciler-type=none",
    "--authorization-mode=RBAC",
  ];
}

/** Whether `/readyz` answers ok (anonymous requests may read it, as in every cluster). */
function ready(url: string, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${url}/readyz`, { ca, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}

async function adminKubeconfig(url: string, c: Certificates): Promise<string> {
  const base64 = async (file: string) => (await readFile(file)).toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: control-plane",
    "  cluster:",
    `    server: ${url}`,
    `    certificate-authority-data: ${await base64(c.caCert)}`,
    "users:",
    "- name: admin",
    "  user:",
    `    client-certificate-data: ${await base64(c.adminCert)}`,
    `    client-key-data: ${await base64(c.adminKey)}`,
    "contexts:",
    "- name: control-plane",
    "  context:",
    "    cluster: control-plane",
    "    user: admin",
    "current-context: control-plane",
    "",
  ].join("\n");
}
