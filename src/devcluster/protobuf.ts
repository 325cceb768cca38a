/**
 * Reads the Kubernetes protobuf encoding of the few built-in kinds kubectl's generators send
 * that way (`kubectl create namespace|configmap|secret` use typed clients, which encode request
 * bodies as `application/vnd.kubernetes.protobuf`). Only decoding, only these kinds: answers are
 * always JSON, which clients accept.
 */
import { badRequest } from "./errors.ts";
import type { Obj } from "./meta.ts";

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

interface Field {
  number: number;
  wire: number;
  value: bigint | Buffer;
}

function readVarint(buf: Buffer, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new Error("truncated varint");
    const byte = buf[pos++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, pos];
    shift += 7n;
    if (shift > 63n) throw new Error("varint too long");
  }
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, next] = readVarint(buf, pos);
    pos = next;
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(buf, pos);
      pos = after;
      out.push({ number, wire, value });
    } else if (wire === 2) {
      const [length, after] = readVarint(buf, pos);
      const end = after + Number(length);
      if (end > buf.length) throw new Error("truncated field");
      out.push({ number, wire, value: buf.subarray(after, end) });
      pos = end;
    } else if (wire === 1) {
      out.push({ number, wire, value: buf.subarray(pos, pos + 8) });
      pos += 8;
    } else if (wire === 5) {
      out.push({ number, wire, value: buf.subarray(pos, pos + 4) });
      pos += 4;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  return out;
}

const str = (f: Field) => (f.value as Buffer).toString("utf8");
const bytes = (f: Field) => f.value as Buffer;
const int = (f: Field) => Number(f.value as bigint);

function map(entries: Field[], value: (f: Field) => unknown): Obj {
  const out: Obj = {};
  for (const entry of entries) {
    let key = "";
    let v: unknown = "";
    for (const f of fields(bytes(entry))) {
      if (f.number === 1) key = str(f);
      if (f.number === 2) v = value(f);
    }
    out[key] = v;
  }
  return out;
}

function time(f: Field): string {
  let seconds = 0;
  for (const t of fields(bytes(f))) if (t.number === 1) seconds = int(t);
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}

function ownerReference(buf: Buffer): Obj {
  const ref: Obj = {};
  for (const f of fields(buf)) {
    if (f.number === 5) ref.apiVersion = str(f);
    else if (f.number === 1) ref.kind = str(f);
    else if (f.number === 3) ref.name = str(f);
    else if (f.number === 4) ref.uid = str(f);
    else if (f.number === 6) ref.controller = int(f) !== 0;
    else if (f.number === 7) ref.blockOwnerDeletion = int(f) !== 0;
  }
  return ref;
}

function objectMeta(buf: Buffer): Obj {
  const m: Obj = {};
  const all = fields(buf);
  const strings: Record<number, string> = {
    1: "name",
    2: "generateName",
    3: "namespace",
    5: "uid",
    6: "resourceVersion",
  };
  for (const f of all) {
    const name = strings[f.number];
    if (name) {
      // Go writes every string field, empty ones too; JSON leaves those out (omitempty).
      if (str(f) !== "") m[name] = str(f);
    } else if (f.number === 7) m.generation = int(f);
    else if (f.number === 8) m.creationTimestamp = time(f);
  }
  const labels = all.filter((f) => f.number === 11);
  if (labels.length > 0) m.labels = map(labels, str);
  const annotations = all.filter((f) => f.number === 12);
  if (annotations.length > 0) m.annotations = map(annotations, str);
  const owners = all.filter((f) => f.number === 13);
  if (owners.length > 0) m.ownerReferences = owners.map((f) => ownerReference(bytes(f)));
  const finalizers = all.filter((f) => f.number === 14);
  if (finalizers.length > 0) m.finalizers = finalizers.map(str);
  return m;
}

type Decoder = (all: Field[], object: Obj) => void;

const DECODERS: Record<string, Decoder> = {
  Namespace(all, object) {
    for (const f of all) {
      if (f.number === 2)
        object.spec = {
          finalizers: fields(bytes(f))
            .filter((x) => x.number === 1)
            .map(str),
        };
    }
  },
  ConfigMap(all, object) {
    const data = all.filter((f) => f.number === 2);
    if (data.length > 0) object.data = map(data, str);
    const binary = all.filter((f) => f.number === 3);
    if (binary.length > 0) object.binaryData = map(binary, (f) => bytes(f).toString("base64"));
    for (const f of all) if (f.number === 4) object.immutable = int(f) !== 0;
  },
  Secret(all, object) {
    const data = all.filter((f) => f.number === 2);
    if (data.length > 0) object.data = map(data, (f) => bytes(f).toString("base64"));
    const stringData = all.filter((f) => f.number === 4);
    if (stringData.length > 0) object.stringData = map(stringData, str);
    for (const f of all) {
      if (f.number === 3) object.type = str(f);
      if (f.number === 5) object.immutable = int(f) !== 0;
    }
  },
};

/** Kinds whose protobuf request bodies are understood. */
export const PROTOBUF_KINDS = Object.keys(DECODERS);

/** Decodes a `k8s\0`-prefixed runtime.Unknown carrying one of PROTOBUF_KINDS into its JSON form. */
export function decodeProtobuf(body: Buffer): Obj {
  try {
    if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC))
      throw new Error("missing the k8s protobuf prefix");
    let apiVersion = "";
    let kind = "";
    let raw: Buffer | undefined;
    for (const f of fields(body.subarray(4))) {
      if (f.number === 1) {
        for (const t of fields(bytes(f))) {
          if (t.number === 1) apiVersion = str(t);
          if (t.number === 2) kind = str(t);
        }
      } else if (f.number === 2) {
        raw = bytes(f);
      }
    }
    const decoder = DECODERS[kind];
    if (!decoder || raw === undefined)
      throw new Error(`protobuf bodies are only understood for ${PROTOBUF_KINDS.join(", ")}`);
    const all = fields(raw);
    const object: Obj = { apiVersion, kind, metadata: {} };
    for (const f of all) if (f.number === 1) object.metadata = objectMeta(bytes(f));
    decoder(all, object);
    return object;
  } catch (error) {
    throw badRequest(`unable to decode the protobuf request body: ${(error as Error).message}`);
  }
}
