import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.ts";
import { decodeProtobuf } from "./protobuf.ts";

// A tiny protobuf writer for the test: length-delimited and varint fields only.
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}
const bytesField = (number: number, payload: Buffer) =>
  Buffer.from([...varint((number << 3) | 2), ...varint(payload.length), ...payload]);
const stringField = (number: number, text: string) => bytesField(number, Buffer.from(text));
const boolField = (number: number, value: boolean) => Buffer.from([...varint(number << 3), value ? 1 : 0]);
const entry = (number: number, key: string, value: Buffer) =>
  bytesField(number, Buffer.concat([stringField(1, key), bytesField(2, value)]));

function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = Buffer.concat([stringField(1, apiVersion), stringField(2, kind)]);
  return Buffer.concat([Buffer.from("k8s\0"), bytesField(1, typeMeta), bytesField(2, raw)]);
}

describe("Kubernetes protobuf request bodies", () => {
  it("decodes a Secret as kubectl create secret sends it", () => {
    const metadata = Buffer.concat([
      stringField(1, "creds"),
      stringField(3, "team-a"),
      entry(11, "app", Buffer.from("web")),
    ]);
    const raw = Buffer.concat([
      bytesField(1, metadata),
      entry(2, "token", Buffer.from("s3cr3t")),
      stringField(3, "Opaque"),
      boolField(5, true),
    ]);
    expect(decodeProtobuf(envelope("v1", "Secret", raw))).toEqual({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "creds", namespace: "team-a", labels: { app: "web" } },
      data: { token: Buffer.from("s3cr3t").toString("base64") },
      type: "Opaque",
      immutable: true,
    });
  });

  it("decodes a Namespace and a ConfigMap", () => {
    const ns = Buffer.concat([
      bytesField(1, stringField(1, "team-b")),
      bytesField(2, stringField(1, "kubernetes")),
    ]);
    expect(decodeProtobuf(envelope("v1", "Namespace", ns))).toEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "team-b" },
      spec: { finalizers: ["kubernetes"] },
    });
    const cm = Buffer.concat([
      bytesField(1, stringField(1, "settings")),
      entry(2, "mode", Buffer.from("fast")),
    ]);
    expect(decodeProtobuf(envelope("v1", "ConfigMap", cm))).toMatchObject({ data: { mode: "fast" } });
  });

  it("answers 400 for other kinds and for garbage", () => {
    for (const body of [
      Buffer.from("{}"),
      envelope("v1", "Pod", Buffer.alloc(0)),
      Buffer.from([0x6b, 0x38, 0x73, 0, 0x0a, 0xff]),
    ]) {
      try {
        decodeProtobuf(body);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe(400);
      }
    }
  });
});
