import { resourceNotFound } from "./errors.ts";

/** Every stored object has a string id, unique in its collection. */
export interface StoredObject {
  id: string;
}

/** One collection of objects (a Map keyed by id), with numeric id assignment. */
export class Collection<T extends StoredObject> {
  readonly name: string;
  readonly items = new Map<string, T>();
  private next = 1;

  constructor(name: string) {
    this.name = name;
  }

  get size(): number {
    return this.items.size;
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  /** The object or a 422 `ResourceNotFound: Couldn't find <label> with ID=<id>`. */
  require(id: string, label: string): T {
    const found = this.items.get(id);
    if (!found) throw resourceNotFound(label, id);
    return found;
  }

  /** The next free numeric id (does not reserve it). */
  peekId(): string {
    return String(this.next);
  }

  /** Stores an object; assigns the next numeric id unless one is given. */
  insert(object: Omit<T, "id"> & { id?: string }): T {
    const id = object.id ?? String(this.next);
    const numeric = Number(id);
    if (Number.isInteger(numeric) && numeric >= this.next) this.next = numeric + 1;
    else if (object.id === undefined) this.next += 1;
    const stored = { ...object, id } as T;
    this.items.set(id, stored);
    return stored;
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  /** Objects for which `predicate` holds, in insertion order. */
  filter(predicate: (object: T) => boolean): T[] {
    const out: T[] = [];
    for (const object of this.items.values()) if (predicate(object)) out.push(object);
    return out;
  }

  find(predicate: (object: T) => boolean): T | undefined {
    for (const object of this.items.values()) if (predicate(object)) return object;
    return undefined;
  }

  clear(): void {
    this.items.clear();
    this.next = 1;
  }
}

/** All collections of the simulator, created on first use. */
export class Store {
  private readonly collections = new Map<string, Collection<StoredObject>>();

  collection<T extends StoredObject>(name: string): Collection<T> {
    let found = this.collections.get(name);
    if (!found) {
      found = new Collection<StoredObject>(name);
      this.collections.set(name, found);
    }
    return found as unknown as Collection<T>;
  }

  names(): string[] {
    return [...this.collections.keys()].sort();
  }

  /** Every object of every non-empty collection, deep-copied (what `/__sim/state` answers). */
  snapshot(): Record<string, StoredObject[]> {
    const out: Record<string, StoredObject[]> = {};
    for (const name of this.names()) {
      // Empty collections are left out: looking one up creates it, and a lookup is no change.
      const collection = this.collection(name);
      if (collection.size > 0) out[name] = structuredClone([...collection.values()]);
    }
    return out;
  }

  clear(): void {
    for (const collection of this.collections.values()) collection.clear();
  }
}
