import { describe, expect, it } from "vitest";
import { metadataOnly } from "./cache-slim.ts";

describe("the ConfigMap watch's cache", () => {
  it("keeps what identifies a ConfigMap and its version, never its data", () => {
    const kept = metadataOnly({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "scripts",
        namespace: "team-a",
        resourceVersion: "42",
        uid: "u1",
        labels: { a: "b" },
        managedFields: [{ manager: "kubectl" }],
      },
      data: { "run.sh": "echo secret-ish" },
      binaryData: { "blob.bin": "AAE=" },
    } as never);
    expect(kept).toEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "scripts", namespace: "team-a", resourceVersion: "42", uid: "u1" },
    });
  });
});
