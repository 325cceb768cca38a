import { deepEqual, isObj, type Obj } from "./meta.ts";

/**
 * What server-side apply needs to know about a schema node (structured-merge-diff's view):
 * whether a map merges per key or is replaced whole, and how a list merges.
 */
export interface Shape {
  atomic?: boolean;
  listType?: "atomic" | "set" | "map";
  mapKeys?: string[];
  properties?: Record<string, Shape>;
  additional?: Shape;
  items?: Shape;
}

/** ObjectMeta as structured-merge-diff sees it. */
export const METADATA_SHAPE: Shape = {
  properties: {
    finalizers: { listType: "set" },
    ownerReferences: { listType: "map", mapKeys: ["uid"], items: {} },
  },
};

/** Turns an openAPIV3Schema into a Shape (extensions x-kubernetes-list-type, -list-map-keys, -map-type). */
export function shapeFromSchema(schema: unknown): Shape {
  if (!isObj(schema)) return {};
  const shape: Shape = {};
  if (schema["x-kubernetes-map-type"] === "atomic") shape.atomic = true;
  const listType = schema["x-kubernetes-list-type"];
  if (listType === "set" || listType === "map" || listType === "atomic") shape.listType = listType;
  if (Array.isArray(schema["x-kubernetes-list-map-keys"])) {
    shape.mapKeys = schema["x-kubernetes-list-map-keys"] as string[];
  }
  if (isObj(schema.properties)) {
    shape.properties = {};
    for (const [key, child] of Object.entries(schema.properties))
      shape.properties[key] = shapeFromSchema(child);
  }
  if (isObj(schema.additionalProperties)) shape.additional = shapeFromSchema(schema.additionalProperties);
  if (isObj(schema.items)) shape.items = shapeFromSchema(schema.items);
  if (schema["x-kubernetes-embedded-resource"] === true) {
    shape.properties = { ...(shape.properties ?? {}), metadata: METADATA_SHAPE };
  }
  return shape;
}

export function childShape(shape: Shape, key: string): Shape {
  return shape.properties?.[key] ?? shape.additional ?? {};
}

/** A path element in fieldsV1 notation: `f:name`, `k:{"type":"Ready"}`, `v:"x"`. */
export type PathElement = string;
export type FieldPath = PathElement[];

export function keyElement(item: unknown, keys: string[]): PathElement {
  const entry: Obj = {};
  for (const key of [...keys].sort()) entry[key] = isObj(item) ? item[key] : undefined;
  return `k:${JSON.stringify(entry)}`;
}

/** fieldpath.Path.String(): `.spec.replicas`, `.status.conditions[type="Ready"]`, `.metadata.finalizers[="x"]`. */
export function pathString(path: FieldPath): string {
  return path
    .map((el) => {
      if (el.startsWith("f:")) return `.${el.slice(2)}`;
      if (el.startsWith("v:")) return `[=${el.slice(2)}]`;
      if (el.startsWith("k:")) {
        const keys = JSON.parse(el.slice(2)) as Obj;
        return `[${Object.entries(keys)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(",")}]`;
      }
      return `[${el.slice(2)}]`;
    })
    .join("");
}

/** A set of field paths, as a tree; serializes to and from managedFields' fieldsV1. */
export class FieldSet {
  self = false;
  readonly children = new Map<PathElement, FieldSet>();

  add(path: FieldPath): void {
    let node: FieldSet = this;
    for (const el of path) {
      let next = node.children.get(el);
      if (!next) {
        next = new FieldSet();
        node.children.set(el, next);
      }
      node = next;
    }
    node.self = true;
  }

  has(path: FieldPath): boolean {
    let node: FieldSet | undefined = this;
    for (const el of path) {
      node = node.children.get(el);
      if (!node) return false;
    }
    return node.self;
  }

  /** Removes one path; answers whether the set held it. */
  remove(path: FieldPath): boolean {
    let held = false;
    const walk = (node: FieldSet, depth: number): boolean => {
      if (depth === path.length) {
        held = node.self;
        node.self = false;
      } else {
        const child = node.children.get(path[depth]!);
        if (!child) return node.self || node.children.size > 0;
        if (!walk(child, depth + 1)) node.children.delete(path[depth]!);
      }
      return node.self || node.children.size > 0;
    };
    walk(this, 0);
    return held;
  }

  /** Removes a path and everything under it; answers whether the set held anything there. */
  removeTree(path: FieldPath): boolean {
    if (path.length === 0) return false;
    let held = false;
    const walk = (node: FieldSet, depth: number): boolean => {
      const el = path[depth]!;
      if (depth === path.length - 1) held = node.children.delete(el);
      else {
        const child = node.children.get(el);
        if (child && !walk(child, depth + 1)) node.children.delete(el);
      }
      return node.self || node.children.size > 0;
    };
    walk(this, 0);
    return held;
  }

  paths(): FieldPath[] {
    const out: FieldPath[] = [];
    const walk = (node: FieldSet, prefix: FieldPath) => {
      if (node.self && prefix.length > 0) out.push(prefix);
      for (const [el, child] of node.children) walk(child, [...prefix, el]);
    };
    walk(this, []);
    return out;
  }

  isEmpty(): boolean {
    return this.paths().length === 0;
  }

  toJSON(): Obj {
    const out: Obj = {};
    if (this.self && this.children.size > 0) out["."] = {};
    for (const el of [...this.children.keys()].sort()) out[el] = this.children.get(el)!.toJSON();
    return out;
  }

  static fromJSON(json: unknown): FieldSet {
    const set = new FieldSet();
    const walk = (node: FieldSet, value: unknown) => {
      if (!isObj(value)) return;
      const keys = Object.keys(value);
      if (keys.length === 0) node.self = true;
      for (const key of keys) {
        if (key === ".") {
          node.self = true;
          continue;
        }
        const child = new FieldSet();
        node.children.set(key, child);
        walk(child, value[key]);
      }
    };
    walk(set, json);
    return set;
  }
}

/**
 * The paths a value sets: leaves, list items of set/map lists, and (with `nodesOf`) the
 * maps and lists that did not exist in `nodesOf` (how an Update operation also claims a map or
 * list it created).
 */
export function collectFields(value: unknown, shape: Shape, nodesOf?: unknown): FieldSet {
  const set = new FieldSet();
  const walk = (v: unknown, s: Shape, path: FieldPath, before: unknown) => {
    if (isObj(v) && !s.atomic) {
      const keys = Object.keys(v);
      if (keys.length === 0 && path.length > 0) {
        set.add(path);
        return;
      }
      if (
        nodesOf !== undefined &&
        path.length > 0 &&
        !isObj(before) &&
        !(path.length === 1 && path[0] === "f:metadata")
      ) {
        set.add(path);
      }
      for (const key of keys) {
        walk(v[key], childShape(s, key), [...path, `f:${key}`], isObj(before) ? before[key] : undefined);
      }
      return;
    }
    if (Array.isArray(v) && (s.listType === "set" || s.listType === "map")) {
      if (v.length === 0) {
        set.add(path);
        return;
      }
      if (nodesOf !== undefined && before === undefined) set.add(path);
      for (const item of v) {
        if (s.listType === "set") {
          set.add([...path, `v:${JSON.stringify(item)}`]);
          continue;
        }
        const el = keyElement(item, s.mapKeys ?? []);
        const itemPath = [...path, el];
        set.add(itemPath);
        if (isObj(item)) {
          const beforeItem = Array.isArray(before) ? findItem(before, item, s.mapKeys ?? []) : undefined;
          for (const key of Object.keys(item)) {
            walk(item[key], childShape(s.items ?? {}, key), [...itemPath, `f:${key}`], beforeItem?.[key]);
          }
        }
      }
      return;
    }
    if (path.length > 0) set.add(path);
  };
  walk(value, shape, [], nodesOf);
  return set;
}

function findItem(list: unknown[], item: Obj, keys: string[]): Obj | undefined {
  return list.find((candidate) => isObj(candidate) && keys.every((k) => deepEqual(candidate[k], item[k]))) as
    | Obj
    | undefined;
}

/** The value at a field path, or undefined. */
export function valueAt(root: unknown, path: FieldPath): unknown {
  let current: unknown = root;
  for (const el of path) {
    if (el.startsWith("f:")) {
      if (!isObj(current)) return undefined;
      current = current[el.slice(2)];
    } else if (el.startsWith("k:")) {
      if (!Array.isArray(current)) return undefined;
      const keys = JSON.parse(el.slice(2)) as Obj;
      current = current.find(
        (item) => isObj(item) && Object.entries(keys).every(([k, v]) => deepEqual(item[k], v)),
      );
    } else if (el.startsWith("v:")) {
      if (!Array.isArray(current)) return undefined;
      const wanted = JSON.parse(el.slice(2)) as unknown;
      current = current.find((item) => deepEqual(item, wanted));
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

export function hasValueAt(root: unknown, path: FieldPath): boolean {
  if (path.length === 0) return true;
  const parent = valueAt(root, path.slice(0, -1));
  const el = path.at(-1)!;
  if (el.startsWith("f:")) return isObj(parent) && Object.hasOwn(parent, el.slice(2));
  return valueAt(root, path) !== undefined;
}

/** Removes the value at a path (a field, a list-map item, a set member); returns whether it was there. */
export function removeAt(root: unknown, path: FieldPath): boolean {
  if (path.length === 0) return false;
  const parent = valueAt(root, path.slice(0, -1));
  const el = path.at(-1)!;
  if (el.startsWith("f:")) {
    if (!isObj(parent) || !Object.hasOwn(parent, el.slice(2))) return false;
    delete parent[el.slice(2)];
    return true;
  }
  if (!Array.isArray(parent)) return false;
  const target = valueAt(root, path);
  const index = parent.indexOf(target);
  if (index < 0) return false;
  parent.splice(index, 1);
  return true;
}

/**
 * What a write changed, in one walk over the old and new values: the member paths that are new
 * or have a new value (maps the write created included, as collectFields(after, shape, before)
 * would list them), and the roots of subtrees that are gone.
 */
export function diffFields(
  before: unknown,
  after: unknown,
  shape: Shape,
): { changed: FieldPath[]; removed: FieldPath[] } {
  const changed: FieldPath[] = [];
  const removed: FieldPath[] = [];
  const walk = (b: unknown, a: unknown, s: Shape, path: FieldPath) => {
    if (isObj(a) && !s.atomic) {
      const bObj = isObj(b) ? b : undefined;
      if (path.length > 0) {
        if (Object.keys(a).length === 0) {
          if (!deepEqual(a, b)) {
            if (b !== undefined) removed.push(path);
            changed.push(path);
          }
          return;
        }
        if (!bObj) {
          if (b !== undefined) removed.push(path);
          if (!(path.length === 1 && path[0] === "f:metadata")) changed.push(path);
        }
      }
      for (const [key, value] of Object.entries(a))
        walk(bObj?.[key], value, childShape(s, key), [...path, `f:${key}`]);
      if (bObj)
        for (const key of Object.keys(bObj)) if (!Object.hasOwn(a, key)) removed.push([...path, `f:${key}`]);
      return;
    }
    if (Array.isArray(a) && (s.listType === "set" || s.listType === "map")) {
      const bArr = Array.isArray(b) ? b : undefined;
      if (b !== undefined && !bArr) removed.push(path);
      if (a.length === 0) {
        if (!deepEqual(a, b)) {
          if (bArr) removed.push(path);
          changed.push(path);
        }
        return;
      }
      if (bArr && bArr.length === 0) removed.push(path);
      // A list the write creates is claimed whole too ("." in fieldsV1), as a map is.
      if (b === undefined) changed.push(path);
      const keys = s.mapKeys ?? [];
      const elementOf = (item: unknown) =>
        s.listType === "set" ? `v:${JSON.stringify(item)}` : keyElement(item, keys);
      const before = new Map<string, unknown>();
      for (const item of bArr ?? []) before.set(elementOf(item), item);
      const seen = new Set<string>();
      for (const item of a) {
        const el = elementOf(item);
        seen.add(el);
        const itemPath = [...path, el];
        const had = before.has(el);
        if (!had) changed.push(itemPath);
        if (s.listType === "set" || !isObj(item)) continue;
        const bItem = had && isObj(before.get(el)) ? (before.get(el) as Obj) : undefined;
        for (const [key, value] of Object.entries(item)) {
          walk(bItem?.[key], value, childShape(s.items ?? {}, key), [...itemPath, `f:${key}`]);
        }
        if (bItem)
          for (const key of Object.keys(bItem))
            if (!Object.hasOwn(item, key)) removed.push([...itemPath, `f:${key}`]);
      }
      for (const el of before.keys()) if (!seen.has(el)) removed.push([...path, el]);
      return;
    }
    if (path.length === 0) return;
    if (!deepEqual(a, b)) {
      if (isObj(b) || Array.isArray(b)) removed.push(path);
      changed.push(path);
    }
  };
  walk(before, after, shape, []);
  return { changed, removed };
}
