import { isIP } from "node:net";
import { generate } from "selfsigned";

export interface TlsMaterial {
  /** PEM certificate; self-signed, so it is also the CA clients are given. */
  cert: string;
  /** PEM private key. */
  key: string;
}

/**
 * A self-signed serving certificate for the devcluster. kubectl (client-go) never sends a
 * bearer token over plain HTTP, so a kubeconfig with a token only works over TLS.
 */
export async function generateTls(host: string, now = new Date()): Promise<TlsMaterial> {
  const names = new Set(["127.0.0.1", "::1", "localhost", host]);
  const altNames = [...names]
    .filter((n) => n !== "0.0.0.0" && n !== "::")
    .map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n }));
  const notAfter = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  const result = await generate([{ name: "commonName", value: "svc-operator-devcluster" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: notAfter,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames },
    ],
  });
  return { cert: result.cert, key: result.private };
}
