import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { StoreSnapshot } from "./store.ts";
import type { TlsMaterial } from "./tls.ts";

const FORMAT = "devcluster.svc-operator/v1";

/** Kept with the store so a restarted devcluster accepts the kubeconfigs it wrote before. */
export interface Credentials {
  token: string;
  tls?: TlsMaterial;
}

interface StateDocument extends StoreSnapshot {
  format: typeof FORMAT;
  credentials?: Credentials;
}

export interface LoadedState {
  snapshot: StoreSnapshot;
  credentials?: Credentials;
}

/** Reads a state file; undefined when there is none yet; a clear error when it is not one. */
export async function loadState(path: string): Promise<LoadedState | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let doc: Partial<StateDocument>;
  try {
    doc = JSON.parse(text) as Partial<StateDocument>;
  } catch (error) {
    throw new Error(`state file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (
    doc.format !== FORMAT ||
    typeof doc.resourceVersion !== "number" ||
    typeof doc.buckets !== "object" ||
    doc.buckets === null
  ) {
    throw new Error(`state file ${path} is not a devcluster state file (format must be "${FORMAT}")`);
  }
  const snapshot: StoreSnapshot = { resourceVersion: doc.resourceVersion, buckets: doc.buckets };
  if (typeof doc.lastChange === "object" && doc.lastChange !== null) snapshot.lastChange = doc.lastChange;
  const loaded: LoadedState = { snapshot };
  const c = doc.credentials;
  if (c && typeof c.token === "string") {
    loaded.credentials = { token: c.token };
    if (c.tls && typeof c.tls.cert === "string" && typeof c.tls.key === "string")
      loaded.credentials.tls = c.tls;
  }
  return loaded;
}

/**
 * Persists the store (and the token and TLS key, so the file is written owner-only): writes are debounced, go to a temporary file that is then renamed over
 * the state file (atomic on POSIX), and never overlap.
 */
export class StateFile {
  private readonly path: string;
  private readonly snapshot: () => StoreSnapshot;
  private readonly debounceMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly credentials: Credentials | undefined;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private counter = 0;
  private lastWriteMs = 0;

  constructor(options: {
    path: string;
    snapshot: () => StoreSnapshot;
    debounceMs?: number;
    onError?: (error: unknown) => void;
    credentials?: Credentials;
  }) {
    this.credentials = options.credentials;
    this.path = options.path;
    this.snapshot = options.snapshot;
    this.debounceMs = options.debounceMs ?? 200;
    this.onError = options.onError ?? (() => {});
  }

  /**
   * Marks the store changed; a write follows within the debounce interval, or within four times
   * the last write's duration when that is longer, so a large store under constant writes spends
   * at most about a fifth of its time serializing.
   */
  changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flush().catch(this.onError);
      },
      Math.max(this.debounceMs, 4 * this.lastWriteMs),
    );
  }

  /** Writes now if anything changed (waits for a write in flight first). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    this.writing = this.write().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  private async write(): Promise<void> {
    const started = performance.now();
    const doc: StateDocument = { format: FORMAT, ...this.snapshot() };
    if (this.credentials) doc.credentials = this.credentials;
    const text = JSON.stringify(doc);
    const temp = `${this.path}.${process.pid}.${++this.counter}.tmp`;
    await mkdir(dirname(this.path), { recursive: true });
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, this.path);
    this.lastWriteMs = performance.now() - started;
  }
}
