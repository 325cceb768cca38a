import { type ServiceApi, selfHref } from "../../api/index.ts";
import type { KindExport } from "../../runtime/sdk/index.ts";
import type { TableObserved } from "../shared/table-kind.ts";
import type { StoredScriptAttachmentClient } from "./schema.ts";

/** The ConfigMap an exported attachment's `contentFrom` names: the manifest's name with `-content`. */
export const contentConfigMap = (manifestName: string) => `${manifestName}-content`;

/** The file name as a ConfigMap key (letters, digits, '-', '_', '.'; the rest become '_'). */
export function contentKey(filename: unknown): string {
  const key = typeof filename === "string" ? filename.replace(/[^-._a-zA-Z0-9]/g, "_").slice(0, 253) : "";
  return /^\.*$/.test(key) ? "content" : key;
}

/**
 * `svc-operator export` of attachments. They are listed per stored script (one index of the
 * scripts, one of each script's attachments). Their content is never copied into the manifests:
 * it may be secret, and export writes files meant for Git. `contentFrom` names a ConfigMap to
 * create instead (ObserveOnly never reads it; a Manage resource waits for it and uploads nothing
 * meanwhile), and export says so.
 */
export const storedScriptAttachmentExport: KindExport<
  TableObserved,
  StoredScriptAttachmentClient & Pick<ServiceApi, "storedScripts">
> = {
  scopes: async (client) => (await client.storedScripts.index()).map((s) => selfHref(s)),
  spec: (o, manifestName) => ({
    contentFrom: { configMapKeyRef: { name: contentConfigMap(manifestName), key: contentKey(o.filename) } },
  }),
  beforeManage(spec) {
    const ref = (spec.contentFrom as { configMapKeyRef?: { name: string; key: string } } | undefined)
      ?.configMapKeyRef;
    if (!ref) return undefined;
    return (
      `spec.contentFrom names ConfigMap ${ref.name} key ${ref.key}, which export does not write (it copies no ` +
      "file content): create it with the file's content (or point contentFrom at a Secret) before switching to Manage"
    );
  },
};
