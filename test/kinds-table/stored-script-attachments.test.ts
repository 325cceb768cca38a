import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { RawKube } from "../../src/runtime/client/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  patch,
  refusal,
  type SentWrite,
  serviceApi,
  simCalls,
  simRows,
  startStorageOperator,
  TEST_MAX_CONTENT_BYTES,
  waitForCond,
} from "../kinds-storage/helpers.ts";
import {
  eventReasons,
  namespaceWithAccount,
  type Stack,
  startStack,
  waitFor,
  waitForEventReason,
} from "../operator/harness.ts";

/**
 * StoredScriptAttachment end to end: its content comes from a ConfigMap or Secret key and goes to
 * the service as a multipart upload. Create, the filename updated alone, a changed ConfigMap
 * uploaded again at once (its watch, no resync) and a changed Secret at the next resync, a
 * binaryData key, the script immutable, delete, orphan, adoption by annotation, ObserveOnly, an
 * attachment deleted or changed outside the operator put back. The content never shows in status,
 * events, logs or the audit trail.
 */

let stack: Stack;
let operator: Operator;
let api: ServiceApi;
/** ConfigMaps and Secrets are written with plain calls: a PUT, as `kubectl apply` of a change. */
let kube: RawKube;
const sent: SentWrite[] = [];

beforeAll(async () => {
  stack = await startStack();
  operator = await startStorageOperator(stack, sent);
  api = serviceApi(stack);
  kube = new RawKube(stack.kc);
});
afterAll(async () => {
  await kube?.close();
  await api?.close();
  await stack?.close();
});

const WAIT = 30_000;
const KIND = "StoredScriptAttachment";
const SCRIPT = "/api/stored_scripts/1";
const POST = "/api/stored_scripts/:stored_script_id/attachments";

interface Row {
  id: string;
  filename: string;
  content_base64: string;
}
const row = (href: string) =>
  simRows<Row>(stack, "stored_script_attachments").find((r) => href === `${SCRIPT}/attachments/${r.id}`);
const content = (href: string) => Buffer.from(row(href)?.content_base64 ?? "", "base64").toString();
const writesTo = (href: string) =>
  sent.filter((w) => w.path === href).map((w) => `${w.method} ${JSON.stringify(w.body)}`);

/** Creates or replaces a ConfigMap or Secret of the namespace (a PUT: what `kubectl apply` of a change does). */
async function put(ns: string, plural: "configmaps" | "secrets", body: { metadata: { name: string } }) {
  const path = `/api/v1/namespaces/${ns}/${plural}`;
  const existing = await kube
    .call<{ metadata: object }>("GET", `${path}/${body.metadata.name}`)
    .catch(() => undefined);
  if (!existing) await kube.call("POST", path, body);
  else await kube.call("PUT", `${path}/${body.metadata.name}`, { ...body, metadata: existing.metadata });
}
const configMap = (
  ns: string,
  name: string,
  data: Record<string, string>,
  binaryData?: Record<string, string>,
) => put(ns, "configmaps", { metadata: { name }, data, binaryData } as { metadata: { name: string } });
const secret = (ns: string, name: string, value: string) =>
  put(ns, "secrets", { metadata: { name }, stringData: { id: value } } as { metadata: { name: string } });

const fromMap = (key = "run.sh", name = "scripts") => ({
  storedScriptHref: SCRIPT,
  contentFrom: { configMapKeyRef: { name, key } },
});
const ready = (ns: string, name: string) =>
  waitForCond(stack, ns, KIND, name, "Ready", "True", { timeoutMs: WAIT });

/** Whatever the operator wrote about the namespace's resources: status, events, its own log lines. */
async function everythingShown(ns: string): Promise<string> {
  const objects = await stack.custom.listNamespacedCustomObject({
    group: "cloud.svc.io",
    version: "v1alpha1",
    namespace: ns,
    plural: "storedscriptattachments",
  });
  const events = await stack.core.listNamespacedEvent({ namespace: ns });
  return JSON.stringify([objects, events.items.map((e) => e.message)]) + stack.logs.join("\n");
}

describe("StoredScriptAttachment", { timeout: 120_000 }, () => {
  it("uploads a ConfigMap key; the filename alone in one call; a changed ConfigMap again at once; binaryData; refuses a script change; deletes", async () => {
    const ns = await namespaceWithAccount(stack);
    await configMap(
      ns,
      "scripts",
      { "run.sh": "echo one\n" },
      { "blob.bin": Buffer.from([0, 1, 2, 255]).toString("base64") },
    );
    await apply(stack, ns, KIND, "run", fromMap());
    const created = await ready(ns, "run");
    const href = created.status!.href!;
    expect(content(href)).toBe("echo one\n");
    expect(row(href)?.filename).toBe("run");
    expect(created.status?.atProvider).toEqual({
      storedScriptHref: SCRIPT,
      filename: "run",
      size: 9,
      updatedAt: expect.any(String),
    });
    expect(
      sent.filter((w) => w.method === "POST" && w.path === `${SCRIPT}/attachments`).at(-1)?.body,
    ).toEqual({
      stored_script_attachment: { filename: "run", content: "<9 bytes>" },
    });

    // The filename: one call carrying it alone.
    await patch(stack, ns, KIND, "run", { spec: { filename: "run.sh" } });
    await waitFor("renamed", async () => row(href)?.filename === "run.sh", WAIT);
    await ready(ns, "run");
    expect(writesTo(href)).toEqual([`PUT {"stored_script_attachment":{"filename":"run.sh"}}`]);

    // The ConfigMap changes: uploaded again through its watch, no resync needed (it is 10 minutes).
    await configMap(
      ns,
      "scripts",
      { "run.sh": "echo two, longer\n" },
      { "blob.bin": Buffer.from([0, 1, 2, 255]).toString("base64") },
    );
    await waitFor("the new content uploaded", async () => content(href) === "echo two, longer\n", WAIT);
    expect(writesTo(href).at(-1)).toBe(`PUT {"stored_script_attachment":{"content":"<17 bytes>"}}`);

    // Another key, of binaryData: its bytes as they are.
    await patch(stack, ns, KIND, "run", {
      spec: { contentFrom: { configMapKeyRef: { name: "scripts", key: "blob.bin" } } },
    });
    await waitFor("the binary content uploaded", async () => row(href)?.content_base64 === "AAEC/w==", WAIT);
    expect(writesTo(href).at(-1)).toBe(`PUT {"stored_script_attachment":{"content":"<4 bytes>"}}`);
    expect((await ready(ns, "run")).status?.atProvider?.size).toBe(4);
    await waitForEventReason(stack, ns, "run", "Updated");

    const refused = await refusal(
      patch(stack, ns, KIND, "run", { spec: { storedScriptHref: "/api/stored_scripts/2" } }),
    );
    expect(refused.code).toBe(422);
    expect(refused.fields).toContain("spec.storedScriptHref");

    expect(await everythingShown(ns)).not.toMatch(/echo (one|two)/);
    await deleteAndWaitGone(stack, ns, KIND, "run");
    expect(row(href)).toBeUndefined();
  });

  it("uploads a Secret key, again after a change at the next resync; never shown, audited masked", async () => {
    const ns = await namespaceWithAccount(stack);
    await secret(ns, "keys", "first-secret-value");
    await apply(stack, ns, KIND, "key", {
      storedScriptHref: SCRIPT,
      contentFrom: { secretKeyRef: { name: "keys", key: "id" } },
    });
    const href = (await ready(ns, "key")).status!.href!;
    expect(content(href)).toBe("first-secret-value");

    // Secrets are never watched: the resync reads the Secret again and finds it changed.
    await secret(ns, "keys", "second-secret-value!");
    await operator.resyncNow();
    await waitFor("the new secret uploaded", async () => content(href) === "second-secret-value!", WAIT);
    const o = await ready(ns, "key");

    expect(await everythingShown(ns)).not.toMatch(/secret-value/);
    const entry = o.status?.auditEntryHref;
    const detail = entry
      ? await waitFor(
          "the audit detail",
          async () => {
            const text = String(await api.auditEntries.detail(entry));
            return text.includes("updated") ? text : undefined;
          },
          WAIT,
        )
      : "";
    expect(detail).toMatch(/contentFrom: \*\*\* -> \*\*\*/);
    expect(detail).not.toMatch(/secret-value/);
    await deleteAndWaitGone(stack, ns, KIND, "key");
  });

  it("a missing ConfigMap, then a missing key, wait naming the field with nothing sent; each fixed proceeds at once", async () => {
    const ns = await namespaceWithAccount(stack);
    const posts = await simCalls(stack, "POST", POST);
    await apply(stack, ns, KIND, "late", fromMap("a.sh", "later"));
    await waitForCond(stack, ns, KIND, "late", "Ready", "False", {
      reason: "ConfigMapNotFound",
      message: /^spec\.contentFrom\.configMapKeyRef\.name: ConfigMap later not found/,
      timeoutMs: WAIT,
    });
    await configMap(ns, "later", { "b.sh": "b" });
    await waitForCond(stack, ns, KIND, "late", "Ready", "False", {
      reason: "ConfigMapKeyMissing",
      message: /^spec\.contentFrom\.configMapKeyRef\.key: ConfigMap later has no key a\.sh \(it has b\.sh\)/,
      timeoutMs: WAIT,
    });
    expect(await simCalls(stack, "POST", POST)).toBe(posts);
    await configMap(ns, "later", { "a.sh": "a", "b.sh": "b" });
    const href = (await ready(ns, "late")).status!.href!;
    expect(content(href)).toBe("a");
    expect(await eventReasons(stack, ns, "late")).toEqual(
      expect.arrayContaining(["ConfigMapNotFound", "ConfigMapKeyMissing"]),
    );
    await deleteAndWaitGone(stack, ns, KIND, "late");
  });

  it("content larger than the service takes is Stalled naming the key; a smaller ConfigMap is uploaded at once", async () => {
    const ns = await namespaceWithAccount(stack);
    const posts = await simCalls(stack, "POST", POST);
    await configMap(ns, "big", { "big.sh": "x".repeat(TEST_MAX_CONTENT_BYTES + 1) });
    await apply(stack, ns, KIND, "big", fromMap("big.sh", "big"));
    await waitForCond(stack, ns, KIND, "big", "Stalled", "True", {
      reason: "InvalidSpec",
      message: new RegExp(
        `^spec\\.contentFrom\\.configMapKeyRef\\.key: ConfigMap big key big\\.sh holds ${TEST_MAX_CONTENT_BYTES + 1} bytes`,
      ),
      timeoutMs: WAIT,
    });
    expect(await simCalls(stack, "POST", POST)).toBe(posts);
    await configMap(ns, "big", { "big.sh": "small" });
    const href = (await ready(ns, "big")).status!.href!;
    expect(content(href)).toBe("small");
    await deleteAndWaitGone(stack, ns, KIND, "big");
  });

  it("Orphan leaves the attachment; the href annotation adopts it back without a create; Delete then removes it", async () => {
    const ns = await namespaceWithAccount(stack);
    await configMap(ns, "scripts", { "run.sh": "echo orphan\n" });
    await apply(stack, ns, KIND, "o", { ...fromMap(), deletionPolicy: "Orphan" });
    const href = (await ready(ns, "o")).status!.href!;
    await deleteAndWaitGone(stack, ns, KIND, "o");
    expect(row(href)).toBeDefined();

    const creates = await simCalls(stack, "POST", POST);
    await apply(stack, ns, KIND, "o", fromMap(), { annotations: { [Annotation.href]: href } });
    expect((await ready(ns, "o")).status?.href).toBe(href);
    await waitFor(
      "Adopted event",
      async () => (await eventReasons(stack, ns, "o")).includes("Adopted"),
      WAIT,
    );
    expect(await simCalls(stack, "POST", POST)).toBe(creates);
    await deleteAndWaitGone(stack, ns, KIND, "o");
    expect(row(href)).toBeUndefined();
  });

  it("ObserveOnly reports an existing attachment, reads no content and never writes it", async () => {
    const ns = await namespaceWithAccount(stack);
    const href = await api.storedScriptAttachments.create(SCRIPT, {
      filename: `watched-${ns}`,
      content: "seen\n",
    });
    const writes = sent.length;
    // The ConfigMap it names does not exist: an ObserveOnly resource does not read it.
    await apply(
      stack,
      ns,
      KIND,
      "w",
      { ...fromMap("x", "absent"), managementPolicy: "ObserveOnly" },
      {
        annotations: { [Annotation.href]: href },
      },
    );
    const o = await ready(ns, "w");
    expect(o.status?.atProvider).toMatchObject({
      filename: `watched-${ns}`,
      size: 5,
      storedScriptHref: SCRIPT,
    });
    await deleteAndWaitGone(stack, ns, KIND, "w");
    expect(sent.slice(writes).filter((w) => w.path.startsWith(SCRIPT))).toEqual([]);
    expect(content(href)).toBe("seen\n");
  });

  it("one index call per script finds an attachment changed or deleted outside the operator, and puts it back", async () => {
    const ns = await namespaceWithAccount(stack);
    await configMap(ns, "scripts", { "run.sh": "echo mine\n" });
    await apply(stack, ns, KIND, "r", fromMap());
    const first = (await ready(ns, "r")).status!.href!;
    const clean = (await operator.resyncNow()).find((r) => r.kind === KIND)!;
    expect(clean).toMatchObject({ drifted: 0, missing: 0, individually: 0 });
    expect(clean.calls).toBeLessThanOrEqual(clean.groups);

    // Someone uploads other content: its size shows the drift, the digest the difference.
    await api.storedScriptAttachments.update(first, { content: "echo theirs, longer\n" });
    expect((await operator.resyncNow()).find((r) => r.kind === KIND)!.drifted).toBeGreaterThanOrEqual(1);
    await waitFor("put back", async () => content(first) === "echo mine\n", WAIT);
    await waitFor(
      "DriftCorrected event",
      async () => (await eventReasons(stack, ns, "r")).includes("DriftCorrected"),
      WAIT,
    );

    await api.storedScriptAttachments.destroy(first);
    expect((await operator.resyncNow()).find((r) => r.kind === KIND)!.missing).toBeGreaterThanOrEqual(1);
    const back = await waitFor(
      "re-created",
      async () => {
        const o = await get(stack, ns, KIND, "r");
        const href = o?.status?.href;
        return href &&
          href !== first &&
          o.status?.conditions?.find((x) => x.type === "Ready")?.status === "True"
          ? href
          : undefined;
      },
      WAIT,
    );
    expect(content(back)).toBe("echo mine\n");
    await waitFor(
      "Recreated event",
      async () => (await eventReasons(stack, ns, "r")).includes("Recreated"),
      WAIT,
    );
    await deleteAndWaitGone(stack, ns, KIND, "r");
  });
});
