import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, type SimClient, startSimulator } from "./harness.ts";
import { callsTo, expectRejected, type Rejection } from "./rejections.ts";

// Seed: stored scripts 1 and 2; attachment 1 (`hello.sh`) on script 1.
let h: Harness;
beforeAll(async () => {
  h = await startSimulator();
});
afterAll(() => h.close());

interface AttachmentRep {
  id: string;
  filename: string;
  created_at: string;
  updated_at: string;
  digest: string;
  size: string;
  download_url: string;
  links: { rel: string; href: string }[];
}

const BASE = "/api/stored_scripts/1/attachments";
const hrefOf = (rep: AttachmentRep, rel: string) => rep.links.find((l) => l.rel === rel)?.href;
const md5 = (data: string | Buffer) => createHash("md5").update(data).digest("hex");

function upload(fields: {
  filename?: string;
  content?: string | Buffer;
  contentName?: string;
  extra?: Record<string, string>;
}) {
  const form = new FormData();
  if (fields.filename !== undefined) form.append("stored_script_attachment[filename]", fields.filename);
  if (fields.content !== undefined) {
    const blob = new Blob([fields.content], { type: "text/x-shellscript" });
    form.append(fields.contentName ?? "stored_script_attachment[content]", blob, "upload.bin");
  }
  for (const [name, value] of Object.entries(fields.extra ?? {})) form.append(name, value);
  return form;
}

async function create(client: SimClient, filename: string, content: string | Buffer) {
  const res = await client.post(BASE, { multipart: upload({ filename, content }) });
  expect(res.status, res.text).toBe(201);
  return res.headers.get("location")!;
}

describe("stored script attachments", () => {
  it("multipart create keeps content, filename, size and digest; show has the fields", async () => {
    const content = "#!/bin/sh\necho run\n";
    const href = await create(h.admin, "run.sh", content);
    expect(href).toMatch(/^\/api\/stored_scripts\/1\/attachments\/\d+$/);
    const res = await h.admin.get(href);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/vnd\.svc\.stored_script_attachment\+json/);
    const rep = res.json<AttachmentRep>();
    expect(rep).toMatchObject({
      id: href.split("/").pop(),
      filename: "run.sh",
      size: String(Buffer.byteLength(content)),
      digest: md5(content),
      created_at: "2026/01/01 00:00:00 +0000",
    });
    expect(typeof rep.size).toBe("string");
    expect(hrefOf(rep, "self")).toBe(href);
    expect(hrefOf(rep, "stored_script")).toBe("/api/stored_scripts/1");

    const download = await fetch(rep.download_url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(content);
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="run.sh"');

    // Download tools ask for raw bytes; the signed URL is not an API representation to negotiate.
    const asBytes = await fetch(rep.download_url, { headers: { accept: "application/octet-stream" } });
    expect(asBytes.status).toBe(200);
    expect(await asBytes.text()).toBe(content);
  });

  it("keeps binary content byte for byte", async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]);
    const href = await create(h.admin, "blob.bin", bytes);
    const rep = (await h.admin.get(href)).json<AttachmentRep>();
    expect(rep.digest).toBe(md5(bytes));
    expect(Buffer.from(await (await fetch(rep.download_url)).arrayBuffer())).toEqual(bytes);
  });

  it("multipart update replaces the content and/or the filename", async () => {
    const href = await create(h.admin, "a.txt", "one");
    await h.hook("clock", { advanceSeconds: 60 });
    const res = await h.admin.put(href, { multipart: upload({ content: "two, longer" }) });
    expect(res.status, res.text).toBe(204);
    let rep = (await h.admin.get(href)).json<AttachmentRep>();
    expect(rep).toMatchObject({ filename: "a.txt", size: "11", digest: md5("two, longer") });
    expect(rep.updated_at).not.toBe(rep.created_at);
    expect(await (await fetch(rep.download_url)).text()).toBe("two, longer");

    expect((await h.admin.put(href, { multipart: upload({ filename: "b.txt" }) })).status).toBe(204);
    rep = (await h.admin.get(href)).json<AttachmentRep>();
    expect(rep).toMatchObject({ filename: "b.txt", digest: md5("two, longer") });
  });

  it("index lists the script's attachments with the filename filter (partial)", async () => {
    await create(h.admin, "Report-Final.TXT", "x");
    const list = async (filter?: string[]) => {
      const res = await h.admin.get(BASE, { query: filter ? { filter } : {} });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/;type=collection/);
      return res.json<AttachmentRep[]>().map((r) => r.filename);
    };
    expect(await list()).toContain("hello.sh");
    expect(await list(["filename==report-fin"])).toEqual(["Report-Final.TXT"]);
    expect(await list(["filename<>report"])).not.toContain("Report-Final.TXT");
    const other = await h.admin.get("/api/stored_scripts/2/attachments");
    expect(other.json<AttachmentRep[]>()).toEqual([]);
  });

  it("destroy removes it; the old download URL then answers 404", async () => {
    const href = await create(h.admin, "gone.txt", "bye");
    const url = (await h.admin.get(href)).json<AttachmentRep>().download_url;
    expect((await h.admin.delete(href)).status).toBe(204);
    const shown = await h.admin.get(href);
    expect(shown.status).toBe(422);
    expect(shown.text).toMatch(/^ResourceNotFound: Couldn't find StoredScriptAttachment with ID=\d+$/);
    expect((await fetch(url)).status).toBe(404);
  });

  it("renders XML", async () => {
    const res = await h.admin.get(`${BASE}/1.xml`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /<stored_script_attachment>[\s\S]*<filename>hello\.sh<\/filename>[\s\S]*<download_url>http/,
    );
  });
});

describe("stored script attachments: the signed download URL", () => {
  it("needs no login, expires (410) and refuses tampering (403)", async () => {
    const rep = (await h.admin.get(`${BASE}/1`)).json<AttachmentRep>();
    const url = new URL(rep.download_url);
    expect(url.pathname).toBe("/downloads/stored_scripts/1/attachments/1");
    expect(url.searchParams.get("expires")).toMatch(/^\d+$/);
    expect(url.searchParams.get("signature")).toMatch(/^[0-9a-f]{64}$/);
    expect((await fetch(url)).status).toBe(200);

    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const tampered = await fetch(later);
    expect(tampered.status).toBe(403);

    const otherObject = new URL(url);
    otherObject.pathname = "/downloads/stored_scripts/1/attachments/2";
    expect((await fetch(otherObject)).status).toBe(403);

    const unsigned = new URL(url);
    unsigned.search = "";
    expect((await fetch(unsigned)).status).toBe(403);

    await h.hook("clock", { advanceSeconds: 601 });
    const expired = await fetch(url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toMatch(/expired/);
    // A fresh representation carries a fresh URL.
    const fresh = (await h.admin.get(`${BASE}/1`)).json<AttachmentRep>().download_url;
    expect((await fetch(fresh)).status).toBe(200);
  });
});

describe("stored script attachments: rejected calls change nothing", () => {
  const cases: Rejection[] = [
    ...callsTo("post", BASE, [
      {
        reason: "create as urlencoded",
        form: { stored_script_attachment: { filename: "x", content: "y" } },
        status: 400,
        text: /must be sent as multipart\/form-data/,
      },
      {
        reason: "create without content",
        multipart: () => upload({ filename: "x" }),
        status: 400,
        text: /stored_script_attachment\[content\] is required/,
      },
      {
        reason: "create with content as a text field",
        multipart: () => upload({ filename: "x", extra: { "stored_script_attachment[content]": "text" } }),
        status: 400,
        text: /stored_script_attachment\[content\] must be a file upload/,
      },
      {
        reason: "create without filename",
        multipart: () => upload({ content: "x" }),
        status: 400,
        text: /stored_script_attachment\[filename\] is required/,
      },
      {
        reason: "create with a blank filename",
        multipart: () => upload({ filename: "", content: "x" }),
        status: 400,
        text: /stored_script_attachment\[filename\] must not be blank/,
      },
      {
        reason: "create with an unknown member",
        multipart: () =>
          upload({
            filename: "x",
            content: "y",
            extra: { "stored_script_attachment[mode]": "755" },
          }),
        status: 400,
        text: /stored_script_attachment\[mode\] is not allowed/,
      },
      {
        reason: "create without the hash",
        multipart: () => upload({ extra: { filename: "x" } }),
        status: 400,
        text: /stored_script_attachment is required/,
      },
    ]),
    {
      reason: "create on an unknown script",
      method: "post",
      path: "/api/stored_scripts/99/attachments",
      multipart: () => upload({ filename: "x", content: "y" }),
      status: 422,
      text: /^ResourceNotFound: Couldn't find StoredScript with ID=99$/,
    },
    ...callsTo("put", `${BASE}/1`, [
      {
        reason: "update with nothing",
        multipart: () => upload({ extra: { other: "1" } }),
        status: 400,
        text: /stored_script_attachment is required/,
      },
      {
        reason: "update with a blank filename",
        multipart: () => upload({ filename: "" }),
        status: 400,
        text: /must not be blank/,
      },
      {
        reason: "update as urlencoded",
        form: { stored_script_attachment: { filename: "x" } },
        status: 400,
        text: /multipart/,
      },
    ]),
    {
      reason: "update of an unknown id",
      method: "put",
      path: `${BASE}/99`,
      multipart: () => upload({ filename: "x" }),
      status: 422,
      text: /^ResourceNotFound: Couldn't find StoredScriptAttachment with ID=99$/,
    },
    {
      reason: "show through another script",
      method: "get",
      path: "/api/stored_scripts/2/attachments/1",
      status: 422,
      text: /^ResourceNotFound: Couldn't find StoredScriptAttachment with ID=1$/,
    },
    {
      reason: "destroy of an unknown id",
      method: "delete",
      path: `${BASE}/99`,
      status: 422,
      text: /Couldn't find StoredScriptAttachment with ID=99/,
    },
    {
      reason: "index with an unknown filter",
      method: "get",
      path: BASE,
      query: { filter: ["digest==x"] },
      status: 400,
      text: /filter\[\] 'digest' is not a filter of this index \(allowed: filename\)/,
    },
    {
      reason: "index with an unknown view",
      method: "get",
      path: BASE,
      query: { view: "full" },
      status: 400,
      text: /view must be one of default/,
    },
  ];
  expectRejected(() => h, cases);

  it("writes need the designer role", async () => {
    const res = await h.expectUnchanged(() =>
      h.user2.post(BASE, { multipart: upload({ filename: "x", content: "y" }) }),
    );
    expect(res.status).toBe(403);
  });
});
