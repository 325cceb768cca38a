import { isApiError } from "../../api/index.ts";
import type { ManagedKind } from "../../runtime/sdk/index.ts";
import { InvalidSpecError, type KeySource, keySourceOf, sourceField } from "../../runtime/sdk/index.ts";
import { type TableDesired, type TableObserved, tableKind } from "../shared/table-kind.ts";
import { storedScriptAttachmentExport } from "./export.ts";
import {
  type StoredScriptAttachmentClient,
  type StoredScriptAttachmentSpec,
  storedScriptAttachmentRows,
  storedScriptAttachmentSpecSchema,
} from "./schema.ts";

/**
 * The most the operator uploads as one attachment. The spec shows no limit; the simulator refuses
 * a request over 20 MiB (413): 16 MiB leaves room for the multipart envelope, far above the 1 MiB a
 * ConfigMap or Secret holds. A service that refuses less with a 413 is reported the same way.
 */
export const MAX_CONTENT_BYTES = 16 * 2 ** 20;

/** The table's desired state, the content read (absent when not read: ObserveOnly) and where from. */
type Desired = TableDesired & { content?: Buffer; source?: KeySource };
type Kind = ManagedKind<StoredScriptAttachmentSpec, Desired, TableObserved, StoredScriptAttachmentClient>;

const source = (spec: StoredScriptAttachmentSpec): KeySource => keySourceOf("contentFrom", spec.contentFrom);

/** Too large for the service: only a change of the content (or of the spec) helps. */
function tooLarge(s: KeySource, what: string): InvalidSpecError {
  return new InvalidSpecError(
    sourceField(s),
    `${s.kind} ${s.name} key ${s.key} ${what}; shrink it, or split it into several attachments`,
  );
}

/** A write the service refuses as too large (413), said against the key the content came from. */
async function refused<T>(desired: Desired, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (desired.source && isApiError(error) && error.status === 413)
      throw tooLarge(
        desired.source,
        `holds ${desired.content?.length} bytes, more than the service accepts (413)`,
      );
    throw error;
  }
}

/** A file attached to a stored script (spec 4.15), its content from a ConfigMap or Secret key, uploaded as multipart. */
export function createStoredScriptAttachmentKind(options: { maxContentBytes?: number } = {}): Kind {
  const max = options.maxContentBytes ?? MAX_CONTENT_BYTES;
  return tableKind<StoredScriptAttachmentSpec, StoredScriptAttachmentClient, Desired>({
    kind: "StoredScriptAttachment",
    plural: "storedscriptattachments",
    singular: "storedscriptattachment",
    shortNames: ["svcssa"],
    description:
      "A file attached to a stored script of the cloud-management service, its content read from a ConfigMap " +
      "or Secret key of the same namespace and uploaded again when it changes.",
    schema: storedScriptAttachmentSpecSchema,
    printerColumns: [
      { name: "File", type: "string", jsonPath: ".status.atProvider.filename", description: "File name" },
      { name: "Size", type: "integer", jsonPath: ".status.atProvider.size", description: "Bytes uploaded" },
    ],
    rows: storedScriptAttachmentRows,
    resource: (client) => ({
      show: (href) => client.storedScriptAttachments.show(href),
      index: (script, options) => client.storedScriptAttachments.index(script, options),
      create: (script, p) =>
        client.storedScriptAttachments.create(script, {
          filename: p.filename as string,
          content: p.content as Buffer,
        }),
      update: (href, p) =>
        client.storedScriptAttachments.update(href, {
          filename: p.filename as string | undefined,
          content: p.content as Buffer | undefined,
        }),
      destroy: (href) => client.storedScriptAttachments.destroy(href),
    }),
    // The attachments of one stored script are one collection: drift is one index call per script.
    perCloud: "storedScriptHref",
    lookupBy: ["filename"],
    keySources: (spec) => [source(spec)],
    export: storedScriptAttachmentExport,
    overrides: {
      async desired(base, spec, ctx) {
        const d: Desired = { ...(await base.desired(spec, ctx)), source: source(spec) };
        const content = ctx.sources?.contentFrom;
        if (content && content.length > max)
          throw tooLarge(
            source(spec),
            `holds ${content.length} bytes; the service takes at most ${max} per attachment`,
          );
        if (content) d.content = content;
        return d;
      },
      // A digest of another form than MD5 cannot be compared: then a different size still tells.
      diff(base, desired, observed) {
        const diff = base.diff(desired, observed);
        const size = desired.content?.length;
        if (size !== undefined && observed.digest === null && observed.size !== size)
          diff.push({ field: "contentFrom", desired: size, observed: observed.size });
        return diff;
      },
      create: (base, client, desired) => refused(desired, base.create(client, desired)),
      update: (base, client, href, desired, observed, diff) =>
        refused(desired, base.update(client, href, desired, observed, diff)),
    },
  });
}

export const storedScriptAttachmentKind = createStoredScriptAttachmentKind();
