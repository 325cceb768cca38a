import pino from "pino";
import { describe, expect, it } from "vitest";
import {
  type KeySource,
  KeySources,
  keySourceOf,
  keySourceSchema,
  type SourceData,
  type SourceKind,
  sourceData,
} from "./key-sources.ts";
import { BlockedError, Reason } from "./result.ts";

/** Sources by `Kind/namespace/name`, a version bumped on every change, and the reads made. */
function cluster() {
  const objects = new Map<string, SourceData>();
  const reads: string[] = [];
  let rv = 1;
  const put = (kind: SourceKind, name: string, data: Record<string, string>) =>
    objects.set(`${kind}/ns/${name}`, {
      resourceVersion: String(++rv),
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v)])),
    });
  const read = async (kind: SourceKind, namespace: string, name: string) => {
    reads.push(`${kind}/${namespace}/${name}`);
    return objects.get(`${kind}/${namespace}/${name}`);
  };
  return { objects, reads, put, read, drop: (key: string) => objects.delete(key) };
}

function sources(
  c: ReturnType<typeof cluster>,
  cached?: (k: SourceKind, ns: string, n: string) => string | null | undefined,
) {
  const queued: string[] = [];
  const ks = new KeySources({
    read: c.read,
    enqueue: (k) => queued.push(k),
    cached,
    log: pino({ level: "silent" }),
  });
  return { ks, queued };
}

const fromMap: KeySource = { field: "contentFrom", kind: "ConfigMap", name: "scripts", key: "run.sh" };
const fromSecret: KeySource = { field: "contentFrom", kind: "Secret", name: "keys", key: "id" };

async function failure(p: Promise<unknown>): Promise<BlockedError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BlockedError);
  return error as BlockedError;
}

describe("KeySources.values: the bytes of each key, or a wait naming the field", () => {
  it("reads each key by spec field, and says when a source changed since the last read", async () => {
    const c = cluster();
    c.put("ConfigMap", "scripts", { "run.sh": "echo hi\n" });
    const { ks } = sources(c);
    const first = await ks.values("Thing/ns/a", "ns", [fromMap]);
    expect(first.values.contentFrom?.toString()).toBe("echo hi\n");
    expect(first.changed).toBe(false);
    expect((await ks.values("Thing/ns/a", "ns", [fromMap])).changed).toBe(false);
    c.put("ConfigMap", "scripts", { "run.sh": "echo bye\n" });
    expect(await ks.values("Thing/ns/a", "ns", [fromMap])).toMatchObject({ changed: true });
  });

  it.each([
    {
      reason: "a missing ConfigMap",
      source: fromMap,
      want: Reason.ConfigMapNotFound,
      message: "spec.contentFrom.configMapKeyRef.name: ConfigMap scripts not found in namespace ns",
    },
    {
      reason: "a missing Secret",
      source: fromSecret,
      want: Reason.SecretNotFound,
      message: "spec.contentFrom.secretKeyRef.name: Secret keys not found in namespace ns",
    },
  ])("$reason", async ({ source, want, message }) => {
    const { ks } = sources(cluster());
    const error = await failure(ks.values("Thing/ns/a", "ns", [source], 1234));
    expect(error.reason).toBe(want);
    expect(error.message).toBe(message);
    expect(error.retryAfterMs).toBe(1234);
  });

  it("a missing key names the field and lists the keys there are, never a value", async () => {
    const c = cluster();
    c.put("Secret", "keys", { other: "s3cret-value" });
    const { ks } = sources(c);
    const error = await failure(ks.values("Thing/ns/a", "ns", [fromSecret]));
    expect(error.reason).toBe(Reason.SecretKeyMissing);
    expect(error.message).toBe("spec.contentFrom.secretKeyRef.key: Secret keys has no key id (it has other)");
    expect(error.message).not.toContain("s3cret");
  });
});

describe("KeySources: who read which version, re-queued when it changes", () => {
  it("a watched change re-queues the readers of an older version only", async () => {
    const c = cluster();
    c.put("ConfigMap", "scripts", { "run.sh": "1" });
    const { ks, queued } = sources(c);
    await ks.values("Thing/ns/a", "ns", [fromMap]);
    const seen = c.objects.get("ConfigMap/ns/scripts")!.resourceVersion;
    ks.changed("ConfigMap", "ns", "scripts", seen);
    ks.changed("ConfigMap", "ns", "other", "99");
    expect(queued).toEqual([]);
    ks.changed("ConfigMap", "ns", "scripts", "99");
    ks.changed("ConfigMap", "ns", "scripts", undefined);
    expect(queued).toEqual(["Thing/ns/a", "Thing/ns/a"]);
  });

  it("a source missing when read re-queues its reader once it appears", async () => {
    const c = cluster();
    const { ks, queued } = sources(c);
    await failure(ks.values("Thing/ns/a", "ns", [fromMap]));
    ks.changed("ConfigMap", "ns", "scripts", undefined);
    expect(queued).toEqual([]);
    ks.changed("ConfigMap", "ns", "scripts", "5");
    expect(queued).toEqual(["Thing/ns/a"]);
  });

  it("recheck reads each source once (Secrets with a get, watched ConfigMaps from the cache) and re-queues what changed", async () => {
    const c = cluster();
    c.put("ConfigMap", "scripts", { "run.sh": "1" });
    c.put("Secret", "keys", { id: "1" });
    const cache = new Map<string, string | null>();
    const { ks, queued } = sources(c, (kind, ns, name) =>
      kind === "ConfigMap" ? cache.get(`${ns}/${name}`) : undefined,
    );
    await ks.values("Thing/ns/a", "ns", [fromMap]);
    await ks.values("Thing/ns/b", "ns", [fromSecret]);
    await ks.values("Thing/ns/c", "ns", [fromSecret]);
    cache.set("ns/scripts", c.objects.get("ConfigMap/ns/scripts")!.resourceVersion);
    c.reads.length = 0;
    expect(await ks.recheck()).toBe(0);
    expect(c.reads).toEqual(["Secret/ns/keys"]);

    c.put("Secret", "keys", { id: "2" });
    cache.set("ns/scripts", "changed");
    expect(await ks.recheck()).toBe(3);
    expect(queued.sort()).toEqual(["Thing/ns/a", "Thing/ns/b", "Thing/ns/c"]);
  });

  it("drops a resource that is gone, and a source nobody reads any more (no entry outlives its resource)", async () => {
    const c = cluster();
    c.put("ConfigMap", "scripts", { "run.sh": "1" });
    c.put("Secret", "keys", { id: "1" });
    const { ks, queued } = sources(c);
    await ks.values("Thing/ns/a", "ns", [fromMap]);
    await ks.values("Thing/ns/b", "ns", [fromMap]);
    // a now reads the Secret instead: the ConfigMap's changes no longer concern it.
    await ks.values("Thing/ns/a", "ns", [fromSecret]);
    ks.forget("Thing/ns/b");
    expect(ks.size).toBe(1);
    ks.changed("ConfigMap", "ns", "scripts", "99");
    expect(queued).toEqual([]);
    ks.forget("Thing/ns/a");
    expect(ks.size).toBe(0);
    c.reads.length = 0;
    expect(await ks.recheck()).toBe(0);
    expect(c.reads).toEqual([]);
  });
});

describe("KeySources: one read of a source for the resources asking at once", () => {
  it("resources reading a source while its read is in flight share it; a later one reads again", async () => {
    const c = cluster();
    c.put("ConfigMap", "scripts", { "run.sh": "echo hi\n" });
    const { ks } = sources(c);
    const at = await Promise.all(["a", "b", "c"].map((n) => ks.values(`Thing/ns/${n}`, "ns", [fromMap])));
    expect(at.map((v) => v.values.contentFrom?.toString())).toEqual(["echo hi\n", "echo hi\n", "echo hi\n"]);
    expect(c.reads).toEqual(["ConfigMap/ns/scripts"]);
    await ks.values("Thing/ns/a", "ns", [fromMap]);
    expect(c.reads).toHaveLength(2);
  });

  it("a watched ConfigMap is read once while its version stands; a Secret or a big ConfigMap each time", async () => {
    const c = cluster();
    c.put("ConfigMap", "scripts", { "run.sh": "echo hi\n" });
    c.put("ConfigMap", "big", { "run.sh": "x".repeat(100 * 1024) });
    c.put("Secret", "keys", { id: "k1" });
    const watched = (kind: SourceKind, ns: string, name: string) =>
      kind === "ConfigMap" ? (c.objects.get(`${kind}/${ns}/${name}`)?.resourceVersion ?? null) : undefined;
    const { ks } = sources(c, watched);
    const big: KeySource = { ...fromMap, name: "big" };
    for (const name of ["a", "b"]) await ks.values(`Thing/ns/${name}`, "ns", [fromMap, big, fromSecret]);
    expect(c.reads.sort()).toEqual([
      "ConfigMap/ns/big",
      "ConfigMap/ns/big",
      "ConfigMap/ns/scripts",
      "Secret/ns/keys",
      "Secret/ns/keys",
    ]);
    c.put("ConfigMap", "scripts", { "run.sh": "echo bye\n" });
    const after = await ks.values("Thing/ns/a", "ns", [fromMap]);
    expect(after).toMatchObject({ changed: true });
    expect(after.values.contentFrom?.toString()).toBe("echo bye\n");
  });

  it("a read asked after a watched change does not join the one sent before it", async () => {
    const c = cluster();
    c.put("ConfigMap", "scripts", { "run.sh": "echo hi\n" });
    const { ks } = sources(c);
    const before = ks.values("Thing/ns/a", "ns", [fromMap]);
    c.put("ConfigMap", "scripts", { "run.sh": "echo bye\n" });
    ks.changed("ConfigMap", "ns", "scripts", c.objects.get("ConfigMap/ns/scripts")!.resourceVersion);
    const after = await ks.values("Thing/ns/b", "ns", [fromMap]);
    await before;
    expect(after.values.contentFrom?.toString()).toBe("echo bye\n");
    expect(c.reads).toHaveLength(2);
  });
});

describe("the spec field and the apiserver's objects", () => {
  it("exactly one of configMapKeyRef and secretKeyRef, each with a name and a key", () => {
    const schema = keySourceSchema("the content");
    expect(schema.safeParse({ configMapKeyRef: { name: "s", key: "run.sh" } }).success).toBe(true);
    expect(schema.safeParse({ configMapKeyRef: { name: "s" } }).success).toBe(false);
    expect(schema.safeParse({ secretKeyRef: { name: "Bad_Name", key: "k" } }).success).toBe(false);
    expect(keySourceOf("contentFrom", { secretKeyRef: { name: "keys", key: "id" } })).toEqual(fromSecret);
  });

  it("a ConfigMap's data is text, its binaryData and a Secret's data base64", () => {
    const map = sourceData(
      { metadata: { resourceVersion: "7" }, data: { a: "héllo" }, binaryData: { b: "AAEC" } },
      "ConfigMap",
    );
    expect(map.resourceVersion).toBe("7");
    expect(map.data.a?.toString()).toBe("héllo");
    expect([...map.data.b!]).toEqual([0, 1, 2]);
    expect(sourceData({ data: { k: "czNjcmV0" } }, "Secret").data.k?.toString()).toBe("s3cret");
  });
});
