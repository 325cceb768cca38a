/**
 * What kube-apiserver's field manager does with kubectl's client-side-apply annotation when
 * `kubectl apply --server-side` (field manager `kubectl`, and only that one) takes over an object
 * that plain `kubectl apply` made (apiserver fieldmanager lastAppliedManager/lastAppliedUpdater):
 * fields whose live value is still the one the annotation recorded are no conflict, and the
 * annotation is kept up to date with what was applied. Other managers get neither, so their
 * conflicts stand and the annotation goes once they own it and stop applying it.
 */
import { collectFields, FieldSet, type Shape, valueAt } from "./fieldset.ts";
import { trackable } from "./managed-fields.ts";
import { deepEqual, isObj, type Obj } from "./meta.ts";

export const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
const KUBECTL = "kubectl";
/** The apiserver gives up syncing the annotation past this total size of annotations. */
const ANNOTATIONS_LIMIT = 256 * 1024;

function annotationsOf(object: Obj | undefined): Obj | undefined {
  const metadata = object?.metadata;
  return isObj(metadata) && isObj(metadata.annotations) ? metadata.annotations : undefined;
}

/**
 * The conflicts an apply by `manager` may override: fields the live object's last-applied
 * annotation (of the same apiVersion) sets to the value they still have. Undefined for any other
 * manager or without a readable annotation.
 */
export function allowedConflicts(
  manager: string,
  live: Obj | undefined,
  apiVersion: string,
  shape: Shape,
): FieldSet | undefined {
  const recorded = annotationsOf(live)?.[LAST_APPLIED];
  if (manager !== KUBECTL || !live || typeof recorded !== "string" || recorded === "") return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(recorded);
  } catch {
    return undefined;
  }
  if (!isObj(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  const recordedView = trackable(lastApplied);
  const liveView = trackable(live);
  const allowed = new FieldSet();
  for (const path of collectFields(recordedView, shape).paths()) {
    const now = valueAt(liveView, path);
    if (now !== undefined && deepEqual(now, valueAt(recordedView, path))) allowed.add(path);
  }
  return allowed;
}

/** JSON as Go encodes an unstructured object: keys sorted at every level. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (isObj(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * After an apply by `manager`: when the result still carries the annotation, it becomes the applied
 * configuration (without the annotation itself). `merged` is changed in place.
 */
export function syncLastApplied(manager: string, merged: Obj, applied: Obj): void {
  const annotations = annotationsOf(merged);
  const current = annotations?.[LAST_APPLIED];
  if (manager !== KUBECTL || !annotations || typeof current !== "string" || current === "") return;
  const config: Obj = { ...applied };
  if (isObj(applied.metadata)) {
    const metadata: Obj = { ...applied.metadata };
    if (isObj(metadata.annotations)) {
      const { [LAST_APPLIED]: _own, ...rest } = metadata.annotations;
      metadata.annotations = rest;
    }
    config.metadata = metadata;
  }
  annotations[LAST_APPLIED] = sortedJson(config);
  const size = Object.entries(annotations).reduce(
    (sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(String(v)),
    0,
  );
  if (size > ANNOTATIONS_LIMIT) delete annotations[LAST_APPLIED];
}
