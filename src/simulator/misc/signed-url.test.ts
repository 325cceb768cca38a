import { describe, expect, it } from "vitest";
import { createUrlSigner } from "./signed-url.ts";

const path = "/__sim/downloads/stored_scripts/1/attachments/2";
const now = Date.UTC(2026, 10, 22, 4, 0, 0);

describe("signed download URLs", () => {
  const signer = createUrlSigner("test-secret");
  const query = new URLSearchParams(signer.sign(path, now, 600));

  it("accepts its own signature until the expiry, inclusive", () => {
    expect(signer.verify(path, query, now)).toBe("valid");
    expect(signer.verify(path, query, now + 600_000)).toBe("valid");
  });

  it("answers expired after the expiry", () => {
    expect(signer.verify(path, query, now + 601_000)).toBe("expired");
  });

  const tampered: { reason: string; path?: string; edit: (q: URLSearchParams) => void }[] = [
    { reason: "a later expiry", edit: (q) => q.set("expires", String(Number(q.get("expires")) + 3600)) },
    { reason: "a flipped signature digit", edit: (q) => q.set("signature", flip(q.get("signature") ?? "")) },
    { reason: "no signature", edit: (q) => q.delete("signature") },
    { reason: "no expiry", edit: (q) => q.delete("expires") },
    { reason: "a short signature", edit: (q) => q.set("signature", "abcd") },
    { reason: "another object's path", path: `${path}9`, edit: () => {} },
  ];
  it.each(tampered)("refuses $reason as tampered", ({ path: other, edit }) => {
    const copy = new URLSearchParams(query);
    edit(copy);
    expect(signer.verify(other ?? path, copy, now)).toBe("tampered");
  });

  it("refuses a signature made with another secret", () => {
    const foreign = new URLSearchParams(createUrlSigner("other").sign(path, now, 600));
    expect(signer.verify(path, foreign, now)).toBe("tampered");
  });
});

function flip(hex: string): string {
  return (hex[0] === "0" ? "1" : "0") + hex.slice(1);
}
