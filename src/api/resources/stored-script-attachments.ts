import * as z from "zod";
import type { ApiClient } from "../client.ts";
import { encodeMultipart, type FilePart } from "../encoding.ts";
import {
  createMultipart,
  destroyAt,
  findHrefs,
  type IndexOptions,
  listAll,
  type ShowOptions,
  showOne,
} from "../resource.ts";
import { linksSchema, timestampSchema } from "../schemas.ts";

export const storedScriptAttachmentSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  filename: z.string(),
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  digest: z.string().nullish(),
  size: z.union([z.string(), z.number()]).nullish(),
  /** Time-limited signed URL. */
  download_url: z.string().nullish(),
  links: linksSchema,
});
export type StoredScriptAttachment = z.output<typeof storedScriptAttachmentSchema>;

/** Attachments of a stored script: `<storedScriptHref>/attachments`, written as multipart. */
export function storedScriptAttachmentsApi(client: ApiClient) {
  const collection = (storedScriptHref: string) => `${storedScriptHref}/attachments`;
  return {
    index: (storedScriptHref: string, options?: IndexOptions) =>
      listAll(client, collection(storedScriptHref), storedScriptAttachmentSchema, options),
    show: (href: string, options?: ShowOptions) =>
      showOne(client, href, storedScriptAttachmentSchema, options),
    create: (
      storedScriptHref: string,
      params: { filename: string; content: string | Uint8Array; contentType?: string },
    ) =>
      createMultipart(
        client,
        collection(storedScriptHref),
        "stored_script_attachment",
        { filename: params.filename, content: filePart(params) },
        {
          find: () =>
            findHrefs(
              client,
              collection(storedScriptHref),
              storedScriptAttachmentSchema,
              { filename: params.filename },
              (a) => a.filename === params.filename,
            ),
        },
      ),
    update: async (
      href: string,
      params: { filename?: string; content?: string | Uint8Array; contentType?: string },
    ) => {
      const content =
        params.content === undefined ? undefined : filePart({ ...params, content: params.content });
      await client.call({
        method: "PUT",
        path: href,
        multipart: encodeMultipart("stored_script_attachment", { filename: params.filename, content }),
      });
    },
    destroy: (href: string) => destroyAt(client, href),
  };
}

function filePart(params: {
  filename?: string;
  content: string | Uint8Array;
  contentType?: string;
}): FilePart {
  return {
    content: params.content,
    filename: params.filename ?? "attachment",
    contentType: params.contentType,
  };
}
