import { createHash } from "node:crypto";
import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { href, keySourceSchema, managedSpec } from "../../runtime/sdk/index.ts";
import { numeric } from "../shared/observe.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRules } from "../shared/table-kind.ts";

export type StoredScriptAttachmentClient = Pick<ServiceApi, "storedScriptAttachments">;

/** The digest the service shows: the MD5 of the content in hex (docs/service-api-notes.md). */
export const contentDigest = (content: unknown): string =>
  createHash("md5")
    .update(content as Uint8Array)
    .digest("hex");

/** A digest of another form cannot be compared with the content's: not compared (see the notes). */
const md5Hex = (raw: unknown): unknown =>
  typeof raw === "string" && /^[0-9a-f]{32}$/i.test(raw) ? raw.toLowerCase() : null;

/**
 * Spec field, API parameter (spec 4.15) and member of the real stored_script_attachment media
 * type. The stored script is the collection's (`<storedScriptHref>/attachments`): never a
 * parameter. The content is compared through the digest the service shows, and the digest is
 * kept out of status (a Secret's content could be guessed from it).
 */
export const storedScriptAttachmentRows: TableRow<StoredScriptAttachmentClient>[] = [
  rows.createOnlyLink("storedScriptHref", "stored_script"),
  { spec: "filename", param: "filename", attribute: "filename", write: "update", defaultName: true },
  {
    spec: "contentFrom",
    param: "content",
    attribute: "digest",
    observed: "digest",
    at: false,
    write: "update",
    empty: "unshown",
    desired: (d) => d.content,
    compare: contentDigest,
    fromApi: md5Hex,
  },
  { spec: "size", attribute: "size", write: "read", fromApi: numeric },
  ...rows.read({ updatedAt: "updated_at" }),
];

export const storedScriptAttachmentSpecSchema = managedSpec(
  {
    storedScriptHref: href("the stored script the file is attached to (/api/stored_scripts/:id)").describe(
      "Href of the stored script the file is attached to, e.g. /api/stored_scripts/1. Create-only.",
    ),
    filename: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("Name of the attached file in the service; defaults to metadata.name."),
    contentFrom: keySourceSchema("the file's content"),
  },
  tableRules(storedScriptAttachmentRows),
  "Desired state of the stored script attachment: its file name, and its content read from a ConfigMap or Secret " +
    "key of the same namespace, uploaded again whenever it changes.",
);

export type StoredScriptAttachmentSpec = z.output<typeof storedScriptAttachmentSpecSchema>;
