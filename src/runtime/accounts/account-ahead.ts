import { keyed, type MapFootprint } from "../../lib/index.ts";
import type { AccountCredentials, SomeAccountKind } from "../sdk/index.ts";

/** A credentials check started before the Account's first reconcile (see AccountController.checkAhead). */
export interface Ahead extends AccountCredentials {
  /** The Account's version it read: a reconcile of that same version takes it whole. */
  resourceVersion: string | undefined;
  client: unknown;
  /** Settled: a caught rejection, so that one nobody takes is not an unhandled one. */
  check: Promise<{ host: string } | { failed: unknown }>;
}

/**
 * The credentials checks started ahead of Accounts' first reconciles, by queue key. A client made
 * here is handed to no one until a reconcile takes it, so one that is not taken is closed at once.
 */
export class ChecksAhead {
  private readonly pending = new Map<string, Promise<Ahead | undefined>>();
  private readonly kind: SomeAccountKind;

  constructor(kind: SomeAccountKind) {
    this.kind = kind;
  }

  has(key: string): boolean {
    return this.pending.has(key);
  }

  /** Reads the credentials (`read`), connects and starts the check, writing nothing. */
  start(
    key: string,
    account: { namespace: string; name: string },
    resourceVersion: string | undefined,
    read: () => Promise<AccountCredentials>,
  ): void {
    const started = (async (): Promise<Ahead> => {
      const { fingerprint, spec, auth } = await read();
      const client = this.kind.connect(spec, auth, account);
      const check = this.kind.verify(client).catch((failed: unknown) => ({ failed }));
      return { resourceVersion, fingerprint, spec, auth, client, check };
    })();
    // A failure here (a missing Secret, a bad spec) is the reconcile's to find and report.
    this.pending.set(
      key,
      started.catch(() => undefined),
    );
  }

  /**
   * The check started ahead for this Account, if it read this version of it and the Account has
   * no client yet (`unclaimed`, asked once the check is there); closed otherwise.
   */
  async take(
    key: string,
    resourceVersion: string | undefined,
    unclaimed: () => boolean,
  ): Promise<Ahead | undefined> {
    const pending = this.pending.get(key);
    if (!pending) return undefined;
    this.pending.delete(key);
    const ahead = await pending;
    if (!ahead) return undefined;
    if (resourceVersion !== undefined && ahead.resourceVersion === resourceVersion && unclaimed())
      return ahead;
    await this.kind.close(ahead.client).catch(() => {});
    return undefined;
  }

  /** Closes every client checked ahead (operator shutdown). */
  async close(): Promise<void> {
    for (const pending of this.pending.values()) {
      const ahead = await pending;
      if (ahead) await this.kind.close(ahead.client).catch(() => {});
    }
    this.pending.clear();
  }

  footprint(): MapFootprint {
    return keyed(this.pending);
  }
}
