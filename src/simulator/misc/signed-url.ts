import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Time-limited signed download URLs (the attachment `download_url`, like an S3 presigned
 * URL). The signature is HMAC-SHA256 over the path and the expiry, so changing either
 * (or the signature) is detected; the expiry is read from the simulator's clock.
 */

export interface UrlSigner {
  /** Query string `expires=<unix seconds>&signature=<hex>` for `path`, valid `ttlSeconds` from `nowMs`. */
  sign(path: string, nowMs: number, ttlSeconds: number): string;
  /** Checks the `expires` and `signature` query values of a request for `path` at `nowMs`. */
  verify(path: string, query: URLSearchParams, nowMs: number): SignatureCheck;
}

/** `tampered`: missing, malformed or wrong signature (403); `expired`: valid but too late (410). */
export type SignatureCheck = "valid" | "expired" | "tampered";

export function createUrlSigner(secret: string | Buffer): UrlSigner {
  const mac = (path: string, expires: string) =>
    createHmac("sha256", secret).update(`${path}\n${expires}`).digest();
  return {
    sign(path, nowMs, ttlSeconds) {
      const expires = String(Math.floor(nowMs / 1000) + ttlSeconds);
      return `expires=${expires}&signature=${mac(path, expires).toString("hex")}`;
    },
    verify(path, query, nowMs) {
      const expires = query.get("expires") ?? "";
      const signature = query.get("signature") ?? "";
      if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return "tampered";
      if (!timingSafeEqual(mac(path, expires), Buffer.from(signature, "hex"))) return "tampered";
      return Number(expires) * 1000 < nowMs ? "expired" : "valid";
    },
  };
}
