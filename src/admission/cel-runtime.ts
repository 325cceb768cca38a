/**
 * The CEL runtime for x-kubernetes-validations: the environment (standard library, strings
 * extension, Kubernetes list and regex functions), how JSON values are bound (integers as int,
 * formatted strings as timestamp/duration/bytes, property names escaped as Kubernetes does), and
 * evaluation with cel-go's error wording.
 */
import {
  type CelFunc,
  type CelList,
  CelScalar,
  celEnv,
  celMethod,
  isCelError,
  listType,
  parse,
  plan,
} from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { NET_FUNCS } from "./cel-net.ts";
import { additionalSchema, isObject, type JSONSchemaProps } from "./types.ts";
export type Bindings = Record<string, unknown>;
export type Program = (bindings: Bindings) => unknown;

function compare(a: unknown, b: unknown): number {
  const x = a as number | bigint | string;
  const y = b as number | bigint | string;
  return x < y ? -1 : x > y ? 1 : 0;
}

const DYN_LIST = listType(CelScalar.DYN);

/** The Kubernetes CEL list and regex libraries (k8s.io/apiserver/pkg/cel/library) that CRD rules use. */
const K8S_FUNCS: CelFunc[] = [
  celMethod("isSorted", DYN_LIST, [], CelScalar.BOOL, function (this: CelList) {
    const values = [...this];
    return values.every((v, i) => i === 0 || compare(values[i - 1], v) <= 0);
  }),
  celMethod("sum", DYN_LIST, [], CelScalar.DYN, function (this: CelList) {
    const values = [...this] as (bigint | number)[];
    if (values.length === 0) return 0n;
    return values.reduce((acc, v) => ((acc as number) + (v as number)) as never);
  }),
  celMethod("min", DYN_LIST, [], CelScalar.DYN, function (this: CelList) {
    const values = [...this];
    if (values.length === 0) throw new Error("min called on empty list");
    return values.reduce((a, b) => (compare(b, a) < 0 ? b : a)) as never;
  }),
  celMethod("max", DYN_LIST, [], CelScalar.DYN, function (this: CelList) {
    const values = [...this];
    if (values.length === 0) throw new Error("max called on empty list");
    return values.reduce((a, b) => (compare(b, a) > 0 ? b : a)) as never;
  }),
  celMethod("indexOf", DYN_LIST, [CelScalar.DYN], CelScalar.INT, function (this: CelList, x: unknown) {
    return BigInt([...this].indexOf(x as never));
  }),
  celMethod("lastIndexOf", DYN_LIST, [CelScalar.DYN], CelScalar.INT, function (this: CelList, x: unknown) {
    return BigInt([...this].lastIndexOf(x as never));
  }),
  celMethod(
    "find",
    CelScalar.STRING,
    [CelScalar.STRING],
    CelScalar.STRING,
    function (this: string, p: string) {
      const m = new RegExp(p, "u").exec(this);
      return m ? m[0] : "";
    },
  ),
  celMethod(
    "findAll",
    CelScalar.STRING,
    [CelScalar.STRING],
    listType(CelScalar.STRING),
    function (this: string, p: string) {
      return [...this.matchAll(new RegExp(p, "gu"))].map((m) => m[0]);
    },
  ),
];

export const ENV = celEnv({ funcs: [...strings, ...K8S_FUNCS, ...NET_FUNCS] });

const STRING_ENV = celEnv({ variables: { s: CelScalar.STRING } });
const TO_TIMESTAMP = plan(STRING_ENV, parse("timestamp(s)")) as unknown as Program;
const TO_DURATION = plan(STRING_ENV, parse("duration(s)")) as unknown as Program;

/** Strings with these formats are bound as CEL timestamp, duration and bytes, as the apiserver does. */
function formattedString(value: string, format: string | undefined): unknown {
  const convert = (program: Program, s: string) => {
    const r = program({ s });
    return isCelError(r) ? value : r;
  };
  switch (format) {
    case "date-time":
      return convert(TO_TIMESTAMP, value);
    case "date":
      return convert(TO_TIMESTAMP, `${value}T00:00:00Z`);
    case "duration":
      return convert(TO_DURATION, value);
    case "byte":
      return new Uint8Array(Buffer.from(value, "base64"));
    default:
      return value;
  }
}

/** Turns a JSON value into the CEL value the apiserver binds for `schema` (integers become int). */
export function toCel(value: unknown, schema: JSONSchemaProps | undefined, isResourceRoot = false): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    return schema?.type === "string" && schema.format ? formattedString(value, schema.format) : value;
  }
  if (typeof value === "number") {
    const type = schema?.["x-kubernetes-int-or-string"] ? "integer" : schema?.type;
    if (type === "number") return value;
    if (type === "integer" || (type === undefined && Number.isInteger(value))) {
      return Number.isInteger(value) ? BigInt(value) : value;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => toCel(v, schema?.items));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    const ap = schema ? additionalSchema(schema) : undefined;
    for (const [k, v] of Object.entries(value)) {
      if (isResourceRoot && k === "metadata" && isObject(v)) {
        const meta: Record<string, unknown> = {};
        if (typeof v.name === "string") meta.name = v.name;
        if (typeof v.generateName === "string") meta.generateName = v.generateName;
        out[k] = meta;
        continue;
      }
      const prop = schema?.properties?.[k];
      if (prop) {
        const name = escapeFieldName(k);
        if (name !== undefined) out[name] = toCel(v, prop);
      } else {
        out[k] = toCel(v, ap);
      }
    }
    return out;
  }
  return value;
}

const RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

/**
 * How Kubernetes exposes a property name to CEL (k8s.io/apiserver/pkg/cel.Escape): reserved words
 * become `__name__`, and `__`, `.`, `-`, `/` are spelled out. Undefined when it cannot be exposed.
 */
export function escapeFieldName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name
    .replaceAll("__", "__underscores__")
    .replaceAll(".", "__dot__")
    .replaceAll("-", "__dash__")
    .replaceAll("/", "__slash__");
}

/** The property name an escaped CEL field name refers to. */
export function unescapeFieldName(name: string): string {
  const reserved = /^__(.+)__$/.exec(name);
  if (reserved && RESERVED.has(reserved[1]!)) return reserved[1]!;
  return name
    .replaceAll("__underscores__", "\u0000")
    .replaceAll("__dot__", ".")
    .replaceAll("__dash__", "-")
    .replaceAll("__slash__", "/")
    .replaceAll("\u0000", "__");
}

export type Evaluation = { ok: true; value: unknown } | { ok: false; error: string };

export function evaluate(program: Program, bindings: Bindings): Evaluation {
  try {
    const r = program(bindings);
    if (isCelError(r)) return { ok: false, error: celErrorText(r.message) };
    return { ok: true, value: r };
  } catch (err) {
    return { ok: false, error: celErrorText((err as Error).message) };
  }
}

/** cel-go's wording for the common runtime errors. */
function celErrorText(message: string): string {
  const field = /^field not found: (.*)$/.exec(message);
  if (field) return `no such key: ${field[1]}`;
  if (/^found no matching overload/.test(message)) return `no such overload`;
  return message;
}
