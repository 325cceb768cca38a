import { createHash } from "node:crypto";
import * as z from "zod";
import type { RequestContext } from "../context.ts";
import { parameterError, resourceNotFound, SimError } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { createUrlSigner, type UrlSigner } from "../misc/signed-url.ts";
import type { UploadedFile } from "../params.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource, type SimulatorApi } from "../resource.ts";
import { access } from "../roles.ts";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";
import type { ParamRule } from "../validate.ts";

/**
 * Stored script attachments (spec 4.15): multipart create/update with bracketed field
 * names; the simulator keeps the content, its size and MD5 digest, and hands out a
 * `download_url` signed with HMAC-SHA256 that expires after DOWNLOAD_TTL_SECONDS and is
 * served on a path outside the API (DOWNLOAD_PREFIX), without login, like a presigned
 * object-store URL: 403 when tampered, 410 when expired.
 */

export const DOWNLOAD_TTL_SECONDS = 600;
export const DOWNLOAD_PREFIX = "/downloads/stored_scripts";

const attachmentSchema = z.object({
  id: seedId,
  stored_script_id: seedId,
  filename: z.string().min(1),
  mime_type: z.string().default("application/octet-stream"),
  /** The content, base64 (so /__sim/state stays JSON). */
  content_base64: z.string().default(""),
  size: z.number().int().nonnegative(),
  digest: z.string(),
  created_at: seedTimestamp.default(SEED_TIME_MS),
  updated_at: seedTimestamp.default(SEED_TIME_MS),
});

export type AttachmentRecord = z.output<typeof attachmentSchema>;

const COLLECTION = "stored_script_attachments";

const createSpec = {
  stored_script_attachment: {
    type: "Hash",
    required: true,
    blank: false,
    members: {
      content: { type: "File", required: true },
      filename: { type: "String", required: true, blank: false },
    },
  },
} satisfies Record<string, ParamRule>;

const updateSpec = {
  stored_script_attachment: {
    type: "Hash",
    required: true,
    blank: false,
    members: { content: { type: "File" }, filename: { type: "String", blank: false } },
  },
} satisfies Record<string, ParamRule>;

const filters: FilterSpec<AttachmentRecord> = {
  filename: { partial: true, get: (a) => a.filename },
};

export function attachmentHref(a: Pick<AttachmentRecord, "stored_script_id" | "id">): string {
  return `/api/stored_scripts/${a.stored_script_id}/attachments/${a.id}`;
}

export function downloadPath(a: Pick<AttachmentRecord, "stored_script_id" | "id">): string {
  return `${DOWNLOAD_PREFIX}/${a.stored_script_id}/attachments/${a.id}`;
}

/** The fields a piece of content sets: size in bytes, MD5 hex digest (the object-store ETag). */
export function contentFields(content: Buffer, mimeType: string) {
  return {
    content_base64: content.toString("base64"),
    size: content.length,
    digest: createHash("md5").update(content).digest("hex"),
    mime_type: mimeType || "application/octet-stream",
  };
}

export function representAttachment(a: AttachmentRecord, downloadUrl: string): Representation {
  return {
    id: a.id,
    filename: a.filename,
    created_at: formatTimestamp(a.created_at),
    updated_at: formatTimestamp(a.updated_at),
    digest: a.digest,
    size: String(a.size),
    download_url: downloadUrl,
    links: [
      link("self", attachmentHref(a)),
      link("stored_script", `/api/stored_scripts/${a.stored_script_id}`),
    ],
  };
}

/** Base URL the caller used (Host header), so the signed URL works from where it was asked. */
function baseUrl(ctx: RequestContext, fallback: string): string {
  const host = ctx.headers.host;
  return host ? `http://${host}` : fallback;
}

/** A multipart body is the only encoding for writes (spec 4.15). */
function requireMultipart(ctx: RequestContext): void {
  const type = String(ctx.headers["content-type"] ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data")) {
    throw parameterError(
      "stored_script_attachment must be sent as multipart/form-data (the content is a file part named " +
        "stored_script_attachment[content])",
    );
  }
}

function register(sim: SimulatorApi): void {
  const signer: UrlSigner = createUrlSigner(sim.secret);
  const attachments = () => sim.store.collection<AttachmentRecord>(COLLECTION);
  const script = (ctx: RequestContext) =>
    ctx.store.collection("stored_scripts").require(ctx.param("stored_script_id"), "StoredScript");
  const find = (ctx: RequestContext): AttachmentRecord => {
    const scriptId = script(ctx).id;
    const id = ctx.param("id");
    const found = attachments().get(id);
    if (!found || found.stored_script_id !== scriptId) throw resourceNotFound("StoredScriptAttachment", id);
    return found;
  };
  const represent = (ctx: RequestContext, a: AttachmentRecord) => {
    const path = downloadPath(a);
    const url = `${baseUrl(ctx, sim.urls.primary)}${path}?${signer.sign(path, ctx.clock.now(), DOWNLOAD_TTL_SECONDS)}`;
    return representAttachment(a, url);
  };
  const base = "/api/stored_scripts/:stored_script_id/attachments";
  const read = access.anyOf("observer");
  const write = access.anyOf("designer");

  sim.route({
    method: "GET",
    path: base,
    access: read,
    handler(ctx) {
      const scriptId = script(ctx).id;
      ctx.view(["default"]);
      const list = ctx.filter(
        attachments().filter((a) => a.stored_script_id === scriptId),
        filters,
      );
      return ctx.many(
        "stored_script_attachment",
        "stored_script_attachments",
        list.map((a) => represent(ctx, a)),
      );
    },
  });

  sim.route({
    method: "GET",
    path: `${base}/:id`,
    access: read,
    handler(ctx) {
      ctx.view(["default"]);
      return ctx.one("stored_script_attachment", represent(ctx, find(ctx)));
    },
  });

  sim.route({
    method: "POST",
    path: base,
    access: write,
    handler(ctx) {
      const scriptId = script(ctx).id;
      requireMultipart(ctx);
      const { stored_script_attachment: written } = ctx.validate<{
        stored_script_attachment: { content: UploadedFile; filename: string };
      }>(createSpec);
      const now = ctx.clock.now();
      const stored = attachments().insert({
        stored_script_id: scriptId,
        filename: written.filename,
        ...contentFields(written.content.content, written.content.mimeType),
        created_at: now,
        updated_at: now,
      });
      return ctx.created(attachmentHref(stored));
    },
  });

  sim.route({
    method: "PUT",
    path: `${base}/:id`,
    access: write,
    handler(ctx) {
      const found = find(ctx);
      requireMultipart(ctx);
      const { stored_script_attachment: written } = ctx.validate<{
        stored_script_attachment: { content?: UploadedFile; filename?: string };
      }>(updateSpec);
      if (written.filename !== undefined) found.filename = written.filename;
      if (written.content !== undefined) {
        Object.assign(found, contentFields(written.content.content, written.content.mimeType));
      }
      found.updated_at = ctx.clock.now();
      return ctx.noContent();
    },
  });

  sim.route({
    method: "DELETE",
    path: `${base}/:id`,
    access: write,
    handler(ctx) {
      attachments().delete(find(ctx).id);
      return ctx.noContent();
    },
  });

  // The signed download: no login, the signature is the credential.
  sim.route({
    method: "GET",
    path: `${DOWNLOAD_PREFIX}/:stored_script_id/attachments/:id`,
    access: "public",
    raw: true,
    handler(ctx) {
      const path = `${DOWNLOAD_PREFIX}/${ctx.param("stored_script_id")}/attachments/${ctx.param("id")}`;
      const query = new URLSearchParams();
      for (const name of ["expires", "signature"]) {
        const value = ctx.params[name];
        if (typeof value === "string") query.set(name, value);
      }
      const check = signer.verify(path, query, ctx.clock.now());
      if (check === "tampered") throw new SimError(403, "Forbidden", "the download signature does not match");
      if (check === "expired")
        throw new SimError(410, "Gone", "the download URL has expired; ask for a new one");
      const found = attachments().get(ctx.param("id"));
      if (!found || found.stored_script_id !== ctx.param("stored_script_id")) {
        throw new SimError(404, "NotFound", "the attachment no longer exists");
      }
      return ctx.raw(200, found.mime_type, Buffer.from(found.content_base64, "base64"), {
        "content-disposition": `attachment; filename="${found.filename.replace(/["\\\r\n]/g, "_")}"`,
        etag: `"${found.digest}"`,
      });
    },
  });
}

export const storedScriptAttachments = defineResource({
  name: "stored_script_attachments",
  collections: { [COLLECTION]: attachmentSchema },
  defaultSeed: () => {
    const content = Buffer.from("#!/bin/sh\necho hello from the seed\n");
    return {
      [COLLECTION]: [
        attachmentSchema.parse({
          id: "1",
          stored_script_id: "1",
          filename: "hello.sh",
          ...contentFields(content, "text/x-shellscript"),
        }),
      ],
    };
  },
  register,
});
