/** A Map that keeps its `size` most recently used keys. */
export class BoundedMap<V> {
  private readonly map = new Map<string, V>();
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
  }

  delete(key: string): void {
    this.map.delete(key);
  }
}
