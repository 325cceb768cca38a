import { createHash } from "node:crypto";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/errors.ts";
import type { DesiredContext } from "../../runtime/sdk/index.ts";
import { InvalidSpecError, NameLookup } from "../../runtime/sdk/index.ts";
import { admitter } from "../shared/admission.testing.ts";
import { createStoredScriptAttachmentKind, storedScriptAttachmentKind as kind } from "./kind.ts";
import { type StoredScriptAttachmentClient, storedScriptAttachmentSpecSchema } from "./schema.ts";

const SCRIPT = "/api/stored_scripts/1";
const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const rep = (id: number, filename: string, content: string, script = SCRIPT) => ({
  id: String(id),
  filename,
  digest: md5(content),
  size: String(Buffer.byteLength(content)),
  updated_at: "2015/04/08 18:46:02 +0000",
  download_url: `https://sim/downloads/${id}?expires=${id}`,
  links: [
    { rel: "self", href: `${script}/attachments/${id}` },
    { rel: "stored_script", href: script },
  ],
});

/** What each call carried: the filename, and the content as its size (never its bytes). */
function fake(items: ReturnType<typeof rep>[], fail?: ApiError) {
  const calls: string[] = [];
  const carried = (p: { filename?: string; content?: string | Uint8Array }) =>
    JSON.stringify({ filename: p.filename, content: p.content && `${p.content.length} bytes` });
  const client = {
    storedScriptAttachments: {
      show: async (href: string) => items.find((i) => i.links[0]!.href === href),
      index: async (script: string, options?: { filter?: Record<string, string> }) => {
        calls.push(`index ${script} ${JSON.stringify(options?.filter ?? {})}`);
        return items;
      },
      create: async (script: string, p: { filename: string; content: Uint8Array }) => {
        if (fail) throw fail;
        calls.push(`create ${script} ${carried(p)}`);
        return `${script}/attachments/9`;
      },
      update: async (href: string, p: { filename?: string; content?: Uint8Array }) => {
        if (fail) throw fail;
        calls.push(`update ${href} ${carried(p)}`);
      },
      destroy: async () => {},
    },
  } as unknown as StoredScriptAttachmentClient;
  return { client, calls };
}

const ctx = (client: StoredScriptAttachmentClient, content?: string) =>
  ({
    meta: { name: "run.sh", namespace: "ns" },
    client,
    refs: {},
    log: pino({ level: "silent" }),
    names: new NameLookup(),
    account: "ns/default",
    sources: content === undefined ? undefined : { contentFrom: Buffer.from(content) },
  }) as DesiredContext<StoredScriptAttachmentClient>;

const spec = storedScriptAttachmentSpecSchema.parse({
  storedScriptHref: SCRIPT,
  contentFrom: { configMapKeyRef: { name: "scripts", key: "run.sh" } },
});

describe("StoredScriptAttachment", () => {
  it("reads its content from the key it names; creates with the filename (metadata.name) and the content", async () => {
    expect(kind.keySources?.(spec)).toEqual([
      { field: "contentFrom", kind: "ConfigMap", name: "scripts", key: "run.sh" },
    ]);
    const { client, calls } = fake([]);
    await kind.create(client, await kind.desired(spec, ctx(client, "echo hi\n")));
    expect(calls).toEqual([`create ${SCRIPT} {"filename":"run.sh","content":"8 bytes"}`]);
    expect(kind.index?.scope(spec, {})).toBe(SCRIPT);
    expect(kind.immutable).toEqual(["storedScriptHref"]);
  });

  it("new content is one update of the content alone; a new filename one of the filename alone", async () => {
    const { client, calls } = fake([rep(1, "run.sh", "echo hi\n")]);
    const href = `${SCRIPT}/attachments/1`;
    const same = await kind.desired(spec, ctx(client, "echo hi\n"));
    const o = (await kind.observe(client, href, same))!;
    expect(kind.diff(same, o)).toEqual([]);

    const changed = await kind.desired(spec, ctx(client, "echo bye\n"));
    const diff = kind.diff(changed, o);
    expect(diff).toEqual([{ field: "contentFrom", desired: md5("echo bye\n"), observed: md5("echo hi\n") }]);
    await kind.update(client, href, changed, o, diff);

    const renamed = await kind.desired({ ...spec, filename: "setup.sh" }, ctx(client, "echo hi\n"));
    await kind.update(client, href, renamed, o, kind.diff(renamed, o));
    expect(calls).toEqual([`update ${href} {"content":"9 bytes"}`, `update ${href} {"filename":"setup.sh"}`]);
  });

  it("content not read (ObserveOnly) is not compared; status shows no digest and no download URL", async () => {
    const { client } = fake([rep(1, "run.sh", "anything")]);
    const d = await kind.desired(spec, ctx(client));
    const o = (await kind.observe(client, `${SCRIPT}/attachments/1`, d))!;
    expect(kind.diff(d, o)).toEqual([]);
    expect(kind.atProvider(o)).toEqual({
      storedScriptHref: SCRIPT,
      filename: "run.sh",
      size: 8,
      updatedAt: "2015/04/08 18:46:02 +0000",
    });
  });

  it("a digest that is not an MD5 cannot be compared: the sizes are, rather than uploading on every reconcile", async () => {
    const { client } = fake([{ ...rep(1, "run.sh", "echo hi\n"), digest: "583955276" }]);
    const same = await kind.desired(spec, ctx(client, "echo ho\n"));
    const o = (await kind.observe(client, `${SCRIPT}/attachments/1`, same))!;
    expect(kind.diff(same, o)).toEqual([]);
    const longer = await kind.desired(spec, ctx(client, "echo hello\n"));
    expect(kind.diff(longer, o)).toEqual([{ field: "contentFrom", desired: 11, observed: 8 }]);
  });

  it("content larger than the service takes, or a 413, is InvalidSpec naming the key's field, without the content", async () => {
    const small = createStoredScriptAttachmentKind({ maxContentBytes: 4 });
    const { client, calls } = fake([]);
    const error = await Promise.resolve()
      .then(() => small.desired(spec, ctx(client, "12345")))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSpecError);
    expect((error as InvalidSpecError).field).toBe("contentFrom.configMapKeyRef.key");
    expect((error as Error).message).toBe(
      "spec.contentFrom.configMapKeyRef.key: ConfigMap scripts key run.sh holds 5 bytes; the service takes at " +
        "most 4 per attachment; shrink it, or split it into several attachments",
    );

    const status413 = new ApiError({
      kind: "invalid",
      code: ApiErrorCodes.invalid,
      status: 413,
      method: "POST",
      href: SCRIPT,
    });
    const refusing = fake([], status413).client;
    const secretSpec = { ...spec, contentFrom: { secretKeyRef: { name: "keys", key: "id" } } };
    const refused = await kind
      .create(refusing, await kind.desired(secretSpec, ctx(refusing, "s3cret")))
      .catch((e: unknown) => e);
    expect((refused as InvalidSpecError).field).toBe("contentFrom.secretKeyRef.key");
    expect((refused as Error).message).toMatch(
      /Secret keys key id holds 6 bytes, more than the service accepts \(413\)/,
    );
    expect((refused as Error).message).not.toContain("s3cret");
    expect(calls).toEqual([]);
  });

  it("a lost create is found by exact filename on its script", async () => {
    const { client, calls } = fake([rep(1, "run.sh", "a"), rep(2, "run.sh.bak", "a")]);
    const d = await kind.desired(spec, ctx(client, "a"));
    expect((await kind.lookup(client, d)).map((o) => o.href)).toEqual([`${SCRIPT}/attachments/1`]);
    expect(calls).toEqual([`index ${SCRIPT} {"filename":"run.sh"}`]);
  });

  it("admission: exactly one source with a name and a key, the script immutable", () => {
    const admit = admitter(kind);
    const fields = (s: Record<string, unknown>, old?: Record<string, unknown>) =>
      admit(s, old).map((c) => c.field);
    const ok = { storedScriptHref: SCRIPT, contentFrom: { secretKeyRef: { name: "keys", key: "id" } } };
    expect(admit(ok)).toEqual([]);
    expect(fields({ storedScriptHref: SCRIPT, contentFrom: {} })).toContain("spec.contentFrom");
    expect(
      fields({
        storedScriptHref: SCRIPT,
        contentFrom: { secretKeyRef: { name: "k", key: "id" }, configMapKeyRef: { name: "c", key: "id" } },
      }),
    ).toContain("spec.contentFrom");
    expect(fields({ storedScriptHref: SCRIPT, contentFrom: { configMapKeyRef: { name: "c" } } })).toContain(
      "spec.contentFrom.configMapKeyRef.key",
    );
    expect(fields({ ...ok, storedScriptHref: "/api/stored_scripts/2" }, ok)).toContain(
      "spec.storedScriptHref",
    );
  });
});
