import { ApiError } from "./errors.ts";
import {
  childShape,
  collectFields,
  diffFields,
  type FieldPath,
  FieldSet,
  hasValueAt,
  keyElement,
  pathString,
  removeAt,
  type Shape,
  valueAt,
} from "./fieldset.ts";
import { clone, deepEqual, isObj, type Obj } from "./meta.ts";

export interface ManagedFieldsEntry {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  time?: string;
  fieldsType: "FieldsV1";
  fieldsV1: Obj;
  subresource?: string;
}

/** Metadata the server owns: never part of a field set. */
const SYSTEM_METADATA = [
  "name",
  "namespace",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "managedFields",
  "selfLink",
];

/** The part of an object that field managers can own (a copy the caller may change). */
export function trackable(object: Obj): Obj {
  return clone(trackableView(object));
}

/**
 * The part of an object that field managers can own, sharing the object's values: for readers
 * only (diffFields), which saves deep copies of the whole object on every write.
 */
function trackableView(object: Obj): Obj {
  const { apiVersion: _a, kind: _k, metadata, ...view } = object;
  if (isObj(metadata)) {
    const m: Obj = {};
    for (const [key, value] of Object.entries(metadata)) if (!SYSTEM_METADATA.includes(key)) m[key] = value;
    if (Object.keys(m).length > 0) view.metadata = m;
  }
  return view;
}

export function readEntries(object: Obj | undefined): ManagedFieldsEntry[] {
  const m = object?.metadata;
  if (!isObj(m) || !Array.isArray(m.managedFields)) return [];
  return m.managedFields.filter(isObj) as unknown as ManagedFieldsEntry[];
}

/**
 * The managedFields a non-apply write starts from, as the apiserver's fieldmanager decides
 * (decodeManagedFields): the ones the request carries, so a client can rewrite ownership (kubectl
 * does, when it upgrades an object from client-side to server-side apply), unless they are missing,
 * empty or malformed, which would otherwise drop everyone's ownership by accident. `[]` and `[{}]`
 * reset ownership. A subresource write never sets them.
 */
export function startingEntries(sent: unknown, old: Obj, subresource?: string): ManagedFieldsEntry[] {
  const live = readEntries(old);
  if (subresource || !Array.isArray(sent)) return live;
  if (sent.length === 0 || (sent.length === 1 && isObj(sent[0]) && Object.keys(sent[0]).length === 0))
    return [];
  const wellFormed = sent.every(
    (e) =>
      isObj(e) &&
      (e.operation === "Apply" || e.operation === "Update") &&
      e.fieldsType === "FieldsV1" &&
      isObj(e.fieldsV1),
  );
  return wellFormed ? (sent as ManagedFieldsEntry[]) : live;
}

function sameSlot(
  entry: ManagedFieldsEntry,
  manager: string,
  operation: string,
  subresource?: string,
): boolean {
  return (
    entry.manager === manager &&
    entry.operation === operation &&
    (entry.subresource ?? "") === (subresource ?? "")
  );
}

function makeEntry(
  manager: string,
  operation: "Apply" | "Update",
  apiVersion: string,
  time: string,
  set: FieldSet,
  subresource?: string,
): ManagedFieldsEntry {
  const entry: ManagedFieldsEntry = {
    manager,
    operation,
    apiVersion,
    time,
    fieldsType: "FieldsV1",
    fieldsV1: set.toJSON(),
  };
  if (subresource) entry.subresource = subresource;
  return entry;
}

function withSets(entries: ManagedFieldsEntry[]) {
  return entries.map((entry) => ({ entry, set: FieldSet.fromJSON(entry.fieldsV1) }));
}

/**
 * fieldsV1 objects this module serialized from a non-empty set: an entry that still holds one of
 * them and whose set a write did not touch can keep it instead of being serialized again (a
 * client-sent fieldsV1 is never in here, so it is still normalized on the next write).
 */
const serialized = new WeakSet<object>();

function finish(
  items: { entry: ManagedFieldsEntry; set: FieldSet; touched?: boolean }[],
): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const { entry, set, touched } of items) {
    if (touched === false && isObj(entry.fieldsV1) && serialized.has(entry.fieldsV1)) {
      out.push({ ...entry });
      continue;
    }
    if (set.isEmpty()) continue;
    const fieldsV1 = set.toJSON();
    serialized.add(fieldsV1);
    out.push({ ...entry, fieldsV1 });
  }
  return out;
}

export interface WriteContext {
  manager: string;
  apiVersion: string;
  subresource?: string;
  shape: Shape;
  time: string;
  /** The object as the writer's version serves it (its field names), when that is not the stored form. */
  view?: (object: Obj) => Obj;
}

/**
 * A non-apply write (create, update, patch): the writer takes the fields it changed away from
 * everyone else, silently, as the real server does for Update operations.
 */
export function recordUpdate(old: Obj | undefined, next: Obj, ctx: WriteContext): ManagedFieldsEntry[] {
  const view = ctx.view ?? ((o: Obj) => o);
  const { changed, removed } = diffFields(
    old ? trackableView(view(old)) : {},
    trackableView(view(next)),
    ctx.shape,
  );
  const items = withSets(readEntries(old)).map((item) => ({ ...item, touched: false }));
  let mine = items.find(({ entry }) => sameSlot(entry, ctx.manager, "Update", ctx.subresource));
  for (const item of items) {
    for (const path of removed) if (item.set.removeTree(path)) item.touched = true;
    if (item === mine) continue;
    for (const path of changed) if (item.set.remove(path)) item.touched = true;
  }
  if (changed.length > 0) {
    if (!mine) {
      mine = {
        entry: makeEntry(ctx.manager, "Update", ctx.apiVersion, ctx.time, new FieldSet(), ctx.subresource),
        set: new FieldSet(),
        touched: true,
      };
      items.push(mine);
    }
    for (const path of changed) mine.set.add(path);
    mine.entry = { ...mine.entry, apiVersion: ctx.apiVersion, time: ctx.time };
    mine.touched = true;
  }
  return finish(items);
}

function mergeValues(live: unknown, applied: unknown, shape: Shape): unknown {
  if (isObj(applied) && isObj(live) && !shape.atomic) {
    const out: Obj = { ...live };
    for (const [key, value] of Object.entries(applied))
      out[key] = mergeValues(live[key], value, childShape(shape, key));
    return out;
  }
  if (Array.isArray(applied) && Array.isArray(live) && shape.listType === "map") {
    const keys = shape.mapKeys ?? [];
    const out = [...live];
    for (const item of applied) {
      const el = keyElement(item, keys);
      const index = out.findIndex((candidate) => keyElement(candidate, keys) === el);
      if (index >= 0) out[index] = mergeValues(out[index], item, shape.items ?? {});
      else out.push(clone(item));
    }
    return out;
  }
  if (Array.isArray(applied) && Array.isArray(live) && shape.listType === "set") {
    const out = [...live];
    for (const item of applied) if (!out.some((c) => deepEqual(c, item))) out.push(clone(item));
    return out;
  }
  return clone(applied);
}

function printManager(entry: ManagedFieldsEntry): string {
  let text = JSON.stringify(entry.manager);
  if (entry.subresource) text += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === "Update") text += ` using ${entry.apiVersion}`;
  return text;
}

/** The real server's 409 for apply conflicts (apimachinery fieldmanager internal.NewConflictError). */
function conflictError(conflicts: { manager: string; path: FieldPath }[]): ApiError {
  const causes = conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${c.manager}`,
    field: pathString(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${conflicts[0]!.manager}: ${pathString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, FieldPath[]>();
    for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
    const lines: string[] = [];
    for (const manager of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${manager}:`);
      for (const path of byManager.get(manager)!) lines.push(`- ${pathString(path)}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
  }
  return new ApiError(409, "Conflict", message, { causes });
}

export interface ApplyResult {
  /** The trackable part of the new object (spec, status, data, labels, annotations, ...). */
  merged: Obj;
  entries: ManagedFieldsEntry[];
}

/**
 * Server-side apply: merge the applied configuration into the live object, answer 409 when it
 * changes a field another manager owns (unless forced, which takes the field), and remove the
 * fields this manager applied before and no longer applies when nobody else owns them.
 */
export function applyConfiguration(
  live: Obj | undefined,
  applied: Obj,
  ctx: WriteContext & { force: boolean; allowedConflicts?: FieldSet | undefined },
): ApplyResult {
  const liveView = live ? trackable(live) : {};
  const appliedView = trackable(applied);
  const newSet = collectFields(appliedView, ctx.shape);
  const items = withSets(readEntries(live));
  const isMine = (entry: ManagedFieldsEntry) => sameSlot(entry, ctx.manager, "Apply", ctx.subresource);
  const conflicts: { manager: string; path: FieldPath; item: (typeof items)[number] }[] = [];
  for (const path of newSet.paths()) {
    if (!hasValueAt(liveView, path)) continue;
    const appliedValue = valueAt(appliedView, path);
    if (path.at(-1)!.startsWith("k:") && isObj(appliedValue)) continue; // its fields are checked one by one
    if (deepEqual(valueAt(liveView, path), appliedValue)) continue;
    for (const item of items) {
      if (isMine(item.entry) || item.entry.manager === ctx.manager) continue;
      if (item.set.has(path)) conflicts.push({ manager: printManager(item.entry), path, item });
    }
  }
  // Conflicts the last-applied annotation vouches for (see last-applied.ts) force the apply.
  const standing = conflicts.filter((c) => !ctx.allowedConflicts?.has(c.path));
  if (standing.length > 0 && !ctx.force) throw conflictError(standing);
  for (const c of conflicts) c.item.set.remove(c.path);

  const merged = mergeValues(liveView, appliedView, ctx.shape) as Obj;
  const mine = items.find(({ entry }) => isMine(entry));
  if (mine) {
    const others = items.filter((item) => item !== mine);
    const stale = mine.set.paths().filter((p) => !newSet.has(p) && !others.some((o) => o.set.has(p)));
    // Deepest first: a map or list the applier stops owning goes only if nothing is left in it
    // (fields still applied, owned by others, or never the applier's), as structured-merge-diff's
    // prune adds those back.
    for (const path of stale.sort((a, b) => b.length - a.length)) {
      // A list-map item's keys go with the item, which they identify.
      if (isKeyField(path)) continue;
      if (!isEmptyOrLeaf(valueAt(merged, path), path.at(-1)!, shapeAt(ctx.shape, path))) continue;
      removeAt(merged, path);
      pruneEmptyParents(merged, path.slice(0, -1), items.map((i) => i.set).concat(newSet));
    }
  }
  const entry = makeEntry(ctx.manager, "Apply", ctx.apiVersion, ctx.time, newSet, ctx.subresource);
  const rest = items.filter((item) => item !== mine);
  const next = [...rest.map(({ entry: e, set }) => ({ entry: e, set })), { entry, set: newSet }];
  return { merged, entries: finish(next) };
}

/**
 * managedFields in the order the real server stores them (the fieldmanager's
 * sortEncodedManagedFields): Apply before Update, then the older first (to the second), then by
 * manager, apiVersion and subresource. Clients that show ownership (kubectl, a diff of two
 * objects) see the same order on both.
 */
export function sortEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const seconds = (time: string | undefined) => Math.floor((Date.parse(time ?? "") || 0) / 1000);
  return [...entries].sort(
    (p, q) =>
      byText(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      byText(p.manager, q.manager) ||
      byText(p.apiVersion, q.apiVersion) ||
      byText(p.subresource ?? "", q.subresource ?? ""),
  );
}

/**
 * Whether a value may go as a whole: a leaf (a scalar, an atomic list or map), an empty map or
 * list, or a list-map item holding nothing but its keys.
 */
function isEmptyOrLeaf(value: unknown, element: string, shape: Shape): boolean {
  const keys = element.startsWith("k:") ? Object.keys(JSON.parse(element.slice(2)) as Obj) : [];
  if (isObj(value)) return shape.atomic === true || Object.keys(value).every((k) => keys.includes(k));
  if (!Array.isArray(value)) return true;
  return value.length === 0 || (shape.listType !== "set" && shape.listType !== "map");
}

/** The shape of the node a field path leads to. */
function shapeAt(shape: Shape, path: FieldPath): Shape {
  let s = shape;
  for (const el of path) s = el.startsWith("f:") ? childShape(s, el.slice(2)) : (s.items ?? {});
  return s;
}

/** Whether a path names a key field of a list-map item (`...k:{"name":"a"}.f:name`). */
function isKeyField(path: FieldPath): boolean {
  const parent = path.at(-2);
  if (!parent?.startsWith("k:")) return false;
  return Object.hasOwn(JSON.parse(parent.slice(2)) as Obj, path.at(-1)!.slice(2));
}

function pruneEmptyParents(root: Obj, path: FieldPath, sets: FieldSet[]): void {
  for (let p = path; p.length > 0; p = p.slice(0, -1)) {
    const value = valueAt(root, p);
    const empty =
      (isObj(value) && Object.keys(value).length === 0) || (Array.isArray(value) && value.length === 0);
    if (!empty || sets.some((s) => s.has(p))) return;
    removeAt(root, p);
  }
}
