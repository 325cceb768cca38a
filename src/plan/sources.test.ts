import { describe, expect, it } from "vitest";
import { planSources } from "./sources.ts";

const manifest = (object: Record<string, unknown>) => ({ source: "test.yaml", object });

describe("the keys a plan's specs read", () => {
  const sources = planSources(
    [
      manifest({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "files" },
        data: { "a.sh": "echo a\n" },
      }),
      manifest({
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "keys", namespace: "team-a" },
        stringData: { token: "s3cret" },
      }),
    ],
    "default",
    undefined,
  );

  it("reads ConfigMaps and Secrets of the plan's own manifests, in their namespaces", async () => {
    const files = await sources.values("StoredScriptAttachment/default/x", "default", [
      { field: "contentFrom", kind: "ConfigMap", name: "files", key: "a.sh" },
    ]);
    expect(files.values.contentFrom?.toString()).toBe("echo a\n");
    const keys = await sources.values("StoredScriptAttachment/team-a/y", "team-a", [
      { field: "contentFrom", kind: "Secret", name: "keys", key: "token" },
    ]);
    expect(keys.values.contentFrom?.toString()).toBe("s3cret");
  });

  it("without a cluster, a source the manifests lack waits as the operator would, naming the field", async () => {
    await expect(
      sources.values("StoredScriptAttachment/team-a/x", "team-a", [
        { field: "contentFrom", kind: "ConfigMap", name: "files", key: "a.sh" },
      ]),
    ).rejects.toThrow("spec.contentFrom.configMapKeyRef.name: ConfigMap files not found in namespace team-a");
    await expect(
      sources.values("StoredScriptAttachment/default/x", "default", [
        { field: "contentFrom", kind: "ConfigMap", name: "files", key: "b.sh" },
      ]),
    ).rejects.toThrow("spec.contentFrom.configMapKeyRef.key: ConfigMap files has no key b.sh (it has a.sh)");
  });
});
