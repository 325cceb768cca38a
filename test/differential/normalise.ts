/**
 * What must differ between two servers given the same requests, replaced by placeholders so the
 * rest can be compared: uids, times, resourceVersions, continue tokens, hashes, the servers'
 * addresses, generated names and the run's namespace name.
 */
export interface Placeholders {
  /** The run's namespace: both servers get the same unique one. */
  namespace: string;
  /** The servers' URLs. */
  urls: string[];
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g;
const HOST_PORT = /\b127\.0\.0\.1:\d+\b/g;
/** Fields holding a resourceVersion or something made of one. */
const VERSION_KEYS = new Set(["resourceVersion", "continue"]);

/** Placeholders in one string: times, uids, addresses, the namespace. */
export function normaliseText(text: string, p: Placeholders): string {
  let out = text;
  for (const url of p.urls) out = out.split(url).join("<server>");
  return out
    .replace(HOST_PORT, "<host>")
    .replace(UUID, "<uid>")
    .replace(TIME, "<time>")
    .replace(new RegExp(`\\b${p.namespace}\\b`, "g"), "<ns>")
    .replace(/\?hash=[0-9A-F]+/g, "?hash=<hash>")
    .replace(/ResourceVersion in record \(\d+\)/g, "ResourceVersion in record (<rv>)");
}

/** Placeholders in a parsed answer, everywhere in it. */
export function normalise(value: unknown, p: Placeholders): unknown {
  if (typeof value === "string") return normaliseText(value, p);
  if (Array.isArray(value)) return value.map((v) => normalise(v, p));
  if (typeof value !== "object" || value === null) return value;
  const object = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(object)) {
    if (VERSION_KEYS.has(key) && typeof v === "string" && v !== "") out[key] = `<${key}>`;
    else out[key] = normalise(v, p);
  }
  const meta = out.metadata as Record<string, unknown> | undefined;
  if (meta && typeof meta.generateName === "string" && typeof meta.name === "string")
    meta.name = meta.name.startsWith(meta.generateName) ? `${meta.generateName}<generated>` : meta.name;
  return out;
}

/** kubectl's output: besides the above, ages in tables, resourceVersions in YAML and JSON, diff's temp files. */
export function normaliseOutput(text: string, p: Placeholders): string {
  return normaliseText(text, p)
    .replace(/(resourceVersion"?: )"\d+"/g, '$1"<rv>"')
    .replace(/\/tmp\/(LIVE|MERGED)-\d+/g, "/tmp/$1")
    .replace(/^((?:---|\+\+\+) \S+)\t.*$/gm, "$1")
    .replace(/(\s)(\d+[smhd]){1,2}(?=\s|$)/gm, "$1<age>");
}
