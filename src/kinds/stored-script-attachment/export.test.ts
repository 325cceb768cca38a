import { describe, expect, it } from "vitest";
import { storedScriptAttachmentKind } from "./kind.ts";

const hook = storedScriptAttachmentKind.export!;

describe("export of stored script attachments", () => {
  it("lists them per stored script: the scripts' index gives the scopes", async () => {
    const client = {
      storedScripts: {
        index: async () => [
          { links: [{ rel: "self", href: "/api/stored_scripts/1" }] },
          { links: [{ rel: "self", href: "/api/stored_scripts/2" }] },
        ],
      },
    };
    expect(await hook.scopes!(client as never)).toEqual(["/api/stored_scripts/1", "/api/stored_scripts/2"]);
  });

  it("names a ConfigMap after the manifest for the content, the file name as its key, and says to create it", () => {
    const spec = hook.spec!(
      { href: "/api/stored_scripts/1/attachments/2", filename: "app config.json" },
      "cfg",
    );
    expect(spec).toEqual({
      contentFrom: { configMapKeyRef: { name: "cfg-content", key: "app_config.json" } },
    });
    expect(hook.beforeManage!(spec)).toBe(
      "spec.contentFrom names ConfigMap cfg-content key app_config.json, which export does not write (it copies no " +
        "file content): create it with the file's content (or point contentFrom at a Secret) before switching to Manage",
    );
    expect(hook.beforeManage!({ contentFrom: { secretKeyRef: { name: "s", key: "k" } } })).toBeUndefined();
  });

  it("keeps a key the schema takes, whatever the file name", () => {
    for (const [filename, key] of [
      ["run.sh", "run.sh"],
      ["..", "content"],
      ["日本.txt", "__.txt"],
      [undefined, "content"],
    ] as const) {
      const spec = hook.spec!({ href: "/x", filename }, "a") as {
        contentFrom: { configMapKeyRef: { key: string } };
      };
      expect(spec.contentFrom.configMapKeyRef.key, String(filename)).toBe(key);
      expect(
        storedScriptAttachmentKind.schema.safeParse({ storedScriptHref: "/api/stored_scripts/1", ...spec })
          .success,
      ).toBe(true);
    }
  });
});
