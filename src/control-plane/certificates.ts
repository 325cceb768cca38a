import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The files a kube-apiserver needs to serve TLS, know its admin and sign ServiceAccount tokens. */
export interface Certificates {
  caCert: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  serviceAccountKey: string;
  serviceAccountPublicKey: string;
}

/**
 * A throwaway CA, a serving certificate for 127.0.0.1, localhost and `host`, an admin client certificate
 * (`O=system:masters`, which RBAC lets do anything) and a ServiceAccount key pair, made with the
 * `openssl` command in `dir`. Node's crypto makes keys but not certificates.
 */
export async function makeCertificates(dir: string, host = "127.0.0.1"): Promise<Certificates> {
  const path = (name: string) => join(dir, name);
  const files: Certificates = {
    caCert: path("ca.crt"),
    servingCert: path("serving.crt"),
    servingKey: path("serving.key"),
    adminCert: path("admin.crt"),
    adminKey: path("admin.key"),
    serviceAccountKey: path("sa.key"),
    serviceAccountPublicKey: path("sa.pub"),
  };
  const caKey = path("ca.key");
  await openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=svc-operator-control-plane-ca",
    "-keyout",
    caKey,
    "-out",
    files.caCert,
  );
  const extensions = path("serving.ext");
  const names = [
    "IP:127.0.0.1",
    "DNS:localhost",
    ...(isIP(host) && host !== "127.0.0.1" ? [`IP:${host}`] : []),
  ];
  await writeFile(extensions, `subjectAltName=${names.join(",")}\nextendedKeyUsage=serverAuth\n`);
  await signed(
    files.servingKey,
    files.servingCert,
    "/CN=kube-apiserver",
    caKey,
    files.caCert,
    extensions,
    dir,
  );
  const client = path("client.ext");
  await writeFile(client, "extendedKeyUsage=clientAuth\n");
  await signed(
    files.adminKey,
    files.adminCert,
    "/O=system:masters/CN=admin",
    caKey,
    files.caCert,
    client,
    dir,
  );
  await openssl("genrsa", "-out", files.serviceAccountKey, "2048");
  await openssl("rsa", "-in", files.serviceAccountKey, "-pubout", "-out", files.serviceAccountPublicKey);
  return files;
}

async function signed(
  key: string,
  cert: string,
  subject: string,
  caKey: string,
  caCert: string,
  extensions: string,
  dir: string,
) {
  const request = join(dir, `${subject.replace(/\W+/g, "-")}.csr`);
  await openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", key, "-out", request);
  await openssl(
    "x509",
    "-req",
    "-in",
    request,
    "-CA",
    caCert,
    "-CAkey",
    caKey,
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    extensions,
    "-out",
    cert,
  );
}

async function openssl(...args: string[]): Promise<void> {
  try {
    await run("openssl", args, { timeout: 30_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split("\n").at(-1) ?? "";
    throw new Error(`openssl ${args[0]} failed (${(error as Error).message.split("\n")[0]}): ${stderr}`);
  }
}
