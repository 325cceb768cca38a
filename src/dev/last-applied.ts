/**
 * What `kubectl apply` (client-side) writes and computes, so objects the dev loop applies look to a
 * later `kubectl apply -f` exactly like objects kubectl applied itself: no warning about a missing
 * annotation, and "unchanged" when nothing changed.
 */

export const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * JSON as Go's encoding/json writes an unstructured object (kubectl's encoder): map keys sorted,
 * no spaces, and <, >, &, U+2028, U+2029 escaped as \u003c and so on. JSON.stringify agrees on
 * everything else (numbers included: Go formats float64 as ECMAScript does).
 */
export function goJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJson).join(",")}]`;
  if (isObj(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${goString(k)}:${goJson(value[k])}`).join(",")}}`;
  }
  return typeof value === "string" ? goString(value) : JSON.stringify(value ?? null);
}

const GO_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

function goString(text: string): string {
  return JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);
}

/**
 * The annotation's value for a manifest, as kubectl computes it (GetModifiedConfiguration): the
 * object without its own annotation (an empty `annotations: {}` stays), encoded as Go does, with
 * the encoder's trailing newline.
 */
export function lastAppliedConfiguration(manifest: Obj): string {
  const metadata = isObj(manifest.metadata) ? manifest.metadata : {};
  const { [LAST_APPLIED]: _self, ...annotations } = isObj(metadata.annotations) ? metadata.annotations : {};
  return `${goJson({ ...manifest, metadata: { ...metadata, annotations } })}\n`;
}

/** The manifest with the annotation kubectl would store for it. */
export function withLastApplied<M extends Obj & { metadata: Obj }>(manifest: M): M {
  const annotations = isObj(manifest.metadata.annotations) ? manifest.metadata.annotations : {};
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      annotations: { ...annotations, [LAST_APPLIED]: lastAppliedConfiguration(manifest) },
    },
  };
}

/** RFC 7386: the merge patch that turns `from` into `to` (objects field by field, anything else whole). */
function mergeDiff(from: Obj, to: Obj): Obj {
  const patch: Obj = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const old = from[key];
    if (isObj(old) && isObj(value)) {
      const sub = mergeDiff(old, value);
      if (Object.keys(sub).length > 0) patch[key] = sub;
    } else if (!(key in from) || goJson(old) !== goJson(value)) patch[key] = value;
  }
  return patch;
}

/** Only the deletions (nulls) of a patch, or only its additions and changes. */
function keepNulls(patch: Obj, nulls: boolean): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      if (nulls) out[key] = null;
    } else if (isObj(value) && Object.keys(value).length > 0) {
      const sub = keepNulls(value, nulls);
      if (Object.keys(sub).length > 0) out[key] = sub;
    } else if (!nulls) out[key] = value; // an explicit {} is a value, as in kubectl
  }
  return out;
}

function deepMerge(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = isObj(out[key]) && isObj(value) ? deepMerge(out[key] as Obj, value) : value;
  return out;
}

/**
 * kubectl's three-way JSON merge patch (jsonmergepatch.CreateThreeWayJSONMergePatch): fields the
 * last applied configuration (`original`) had and the new one drops are deleted; fields the new
 * one sets differently from the live object are set; fields only the live object has (status,
 * defaults, what others wrote) are left alone. `{}` means unchanged.
 */
export function threeWayMergePatch(original: Obj | undefined, modified: Obj, current: Obj): Obj {
  const deletions = keepNulls(mergeDiff(original ?? {}, modified), true);
  const changes = keepNulls(mergeDiff(current, modified), false);
  return deepMerge(deletions, changes);
}
