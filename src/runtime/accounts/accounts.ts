import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { Clock } from "../../lib/index.ts";
import { type Footprint, keyed } from "../../lib/index.ts";
import type { EventSink } from "../client/index.ts";
import {
  ConflictError,
  GoneError,
  type KubeWriter,
  mergePatch,
  type ObjectRef,
  type ObjectStore,
} from "../client/index.ts";
import type { ReferenceIndex } from "../indexes/index.ts";
import { blockersOf, needsAction } from "../indexes/index.ts";
import type { AccountClients, ReconcileOutcome } from "../reconcile/index.ts";
import type { AccountCredentials, ManagedObject, SomeAccountKind } from "../sdk/index.ts";
import {
  ACCOUNT_DELETING,
  type AccountUse,
  Annotation,
  conditionsFor,
  DeletionBlockedError,
  EventReason,
  EventTypes,
  FINALIZER,
  type NoClient,
  type Outcome,
  objectKey,
  outcomeEvent,
  outcomeOf,
  parseKey,
  parseSpec,
  Reason,
  SECRET_RECHECK_MS,
} from "../sdk/index.ts";
import type { ExplainServiceError, ProblemLog } from "../telemetry/index.ts";
import { ChecksAhead } from "./account-ahead.ts";
import * as problem from "./account-problems.ts";
import { RetiredClients } from "./retired-clients.ts";

interface Entry {
  fingerprint: string;
  client: unknown;
  verified: boolean;
  /**
   * The client passed a check once. It keeps serving the deletes of the Account's dependents
   * while later checks fail: a namespace deletion removes the Secret before the custom
   * resources, and their service objects must still be deleted.
   */
  worked: boolean;
  error?: string;
  /** The condition reason of the failed check (SecretNotFound, CredentialsInvalid, ...). */
  reason?: string;
  /** When checks started failing (clock ms). */
  failingSince?: number;
}

/**
 * Reconciles Accounts and keeps one verified service client per Account, which
 * managed resources get through `get`. Namespaces never share credentials: the
 * key is namespace/name and Secrets are read from the Account's namespace only.
 */
export class AccountController implements AccountClients {
  private readonly entries = new Map<string, Entry>();
  /** Accounts whose dependents were parked (`pending`) and wait for a wake. */
  private readonly parked = new Set<string>();
  private readonly ahead: ChecksAhead;
  /** Clients replaced by a new one, which reconciles that took them before may still be using. */
  private readonly retired: RetiredClients;
  private readonly kind: SomeAccountKind;
  private readonly deps: {
    store: ObjectStore;
    kube: KubeWriter;
    refs: ReferenceIndex;
    events: EventSink;
    clock: Clock;
    log: Logger;
    resyncMs: number;
    /**
     * Called when an Account's client becomes usable, or a check fails after none had: its
     * dependents can proceed, or record why they cannot (they are parked until then).
     */
    onVerified?: (key: string) => void;
    /** Where an Account that stays unready is logged, once per cause; a line per attempt without. */
    problems?: ProblemLog;
    /** Words for a service failure that say what to do (the condition message). */
    explain?: ExplainServiceError;
    /** How long a replaced client stays open (default RETIRED_CLIENT_GRACE_MS). */
    retiredGraceMs?: number;
    /**
     * Runs the wait for a credentials check's answer with the reconcile's slot lent to other keys
     * (Workers.lend): the check holds only a connection of the Account's own client, and an
     * endpoint that accepts connections and never answers holds it until the check's timeout,
     * which must not keep other namespaces' reconciles waiting. Default: waits holding the slot.
     */
    lend?: <T>(wait: Promise<T>) => Promise<T>;
    /**
     * Resolves when no audit call of the Account's resources is pending (AuditTrail.settledFor):
     * those calls are made with its client, which an Account being deleted keeps until then.
     */
    auditSettled?: (namespace: string, name: string) => Promise<void>;
  };

  constructor(kind: SomeAccountKind, deps: AccountController["deps"]) {
    this.kind = kind;
    this.deps = deps;
    this.ahead = new ChecksAhead(kind);
    this.retired = new RetiredClients((client) => kind.close(client), deps.clock, deps.retiredGraceMs);
  }

  get(namespace: string, name: string, use: AccountUse = "write"): { client: unknown } | NoClient {
    const key = objectKey("Account", namespace, name);
    const entry = this.entries.get(key);
    const obj = this.deps.store.get("Account", namespace, name);
    if (use === "delete") {
      if (entry?.client && (entry.verified || entry.worked)) return { client: entry.client };
    } else if (obj?.metadata.deletionTimestamp) return { notReady: ACCOUNT_DELETING };
    else if (entry?.verified) return { client: entry.client };
    if (!obj) return { notReady: problem.missingAccount(this.deps.store, namespace, name) };
    if (this.parkIfPending(key)) return { notReady: "credentials not verified yet", pending: true };
    const failingSince = entry?.failingSince;
    return {
      notReady: entry?.error ?? "credentials not verified yet",
      ...(entry?.reason !== undefined ? { reason: entry.reason } : {}),
      ...(failingSince !== undefined ? { failingForMs: this.deps.clock.now() - failingSince } : {}),
    };
  }

  /**
   * Whether the Account's last credentials check failed (a queue key): its next reconcile is a
   * retry, which waits behind other work rather than in the Accounts' lane ahead of everything.
   */
  failing(key: string): boolean {
    return this.entries.get(key)?.error !== undefined;
  }

  /**
   * Whether the Account (a queue key) exists and its first credentials check has not ended:
   * then its dependents are parked, to be woken (onVerified) when the check ends.
   */
  parkIfPending(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry?.verified || entry?.error) return false;
    const { namespace, name } = parseKey(key);
    if (!this.deps.store.get("Account", namespace, name)) return false;
    this.parked.add(key);
    return true;
  }

  /**
   * Starts an Account's first credentials check before its reconcile, writing nothing: at an
   * operator start it runs while the other kinds' caches still fill, and the reconcile that
   * follows, if the Account is at the same version, takes its Secret read and its result instead
   * of doing both again (a Secret changed in that moment is read by the next reconcile).
   */
  checkAhead(namespace: string, name: string): void {
    const key = objectKey("Account", namespace, name);
    const obj = this.deps.store.get("Account", namespace, name);
    if (!obj || obj.metadata.deletionTimestamp || this.entries.has(key) || this.ahead.has(key)) return;
    this.ahead.start(key, { namespace, name }, obj.metadata.resourceVersion, () =>
      this.credentials(namespace, obj),
    );
  }

  /** The spec, the credentials its Secret holds, and a fingerprint of both. */
  private async credentials(namespace: string, obj: ManagedObject): Promise<AccountCredentials> {
    const spec = parseSpec(this.kind.schema, obj.spec);
    this.kind.admit?.(spec);
    const auth = await this.kind.credentials(spec, (secret) => this.deps.kube.readSecret(namespace, secret));
    const fingerprint = createHash("sha256")
      .update(JSON.stringify([spec, auth]))
      .digest("hex");
    return { fingerprint, spec, auth };
  }

  /** The check started ahead for this Account, if it read this version of it; closed otherwise. */
  private takeAhead(key: string, resourceVersion: string | undefined) {
    return this.ahead.take(key, resourceVersion, () => !this.entries.has(key));
  }

  /** Operator shutdown (the reconciles have ended): closes every client, the retired ones too. */
  async close(): Promise<void> {
    await this.ahead.close();
    for (const e of this.entries.values()) if (e.client) await this.kind.close(e.client).catch(() => {});
    this.entries.clear();
    await this.retired.close();
  }

  async reconcile(namespace: string, name: string): Promise<ReconcileOutcome> {
    const key = objectKey("Account", namespace, name);
    const obj = this.deps.store.get("Account", namespace, name);
    if (!obj) {
      await this.drop(key);
      return { gone: true };
    }
    const log = this.deps.log.child({ kind: "Account", namespace, name });
    const ref: ObjectRef = { kind: "Account", plural: "accounts", namespace, name };
    let current = obj;
    let host: string | undefined = obj.status?.host as string | undefined;
    let outcome: Outcome;
    let retry = false;
    try {
      if (obj.metadata.deletionTimestamp) {
        if (!(obj.metadata.finalizers ?? []).includes(FINALIZER)) return {};
        const blockers = blockersOf(key, this.deps.refs, this.deps.store);
        if (blockers.length > 0) {
          // The dependents being deleted still need the client: it stays until the last one is gone.
          const missing = await this.keepForDeletes(key, namespace, name, obj);
          throw new DeletionBlockedError(
            problem.accountBlockedMessage(blockers, missing),
            missing === undefined ? undefined : SECRET_RECHECK_MS,
            needsAction(blockers),
          );
        }
        await this.auditSettled(namespace, name);
        await this.deps.kube.patchMetadata(
          ref,
          { finalizers: (obj.metadata.finalizers ?? []).filter((f) => f !== FINALIZER) },
          obj.metadata.resourceVersion,
        );
        await this.drop(key);
        return {};
      }
      if (!(obj.metadata.finalizers ?? []).includes(FINALIZER)) {
        // Managed resources need their Account to delete what they created: it stays until they are gone.
        current = await this.deps.kube.patchMetadata(
          ref,
          { finalizers: [...(obj.metadata.finalizers ?? []), FINALIZER] },
          obj.metadata.resourceVersion,
        );
      }
      host = await this.check(key, namespace, name, obj);
      outcome = { type: "ready", reason: Reason.Available, message: `authenticated against ${host}` };
      this.deps.problems?.succeeded(problem.accountSubject(namespace, name));
    } catch (error) {
      if (error instanceof ConflictError) return { retry: true };
      if (error instanceof GoneError) return {};
      outcome = outcomeOf(error, () => false);
      if (outcome.type === "error") retry = true;
      // Dependents parked while the check ran now record why they cannot proceed.
      if (this.parked.delete(key)) this.deps.onVerified?.(key);
      const event = outcomeEvent(outcome, obj.status?.conditions);
      if (event) this.event(obj, event.reason, event.message, event.type);
      problem.logAccountFailure(this.deps.problems, log, { namespace, name }, outcome, error);
    }
    const status: Record<string, unknown> = { ...(current.status ?? {}) };
    if (host) status.host = host;
    const requested = obj.metadata.annotations?.[Annotation.reconcileRequestedAt];
    if (requested !== undefined) status.lastHandledReconcileAt = requested;
    status.observedGeneration = obj.metadata.generation;
    status.conditions = conditionsFor(
      outcome,
      current.status?.conditions ?? [],
      obj.metadata.generation,
      new Date(this.deps.clock.now()),
    );
    const patch = mergePatch(current.status ?? {}, status);
    if (patch !== undefined) {
      try {
        await this.deps.kube.patchUnread(ref, { status: patch as Record<string, unknown> });
      } catch (error) {
        if (!(error instanceof GoneError)) throw error;
      }
    }
    const requeueAfterMs =
      outcome.type === "ready"
        ? this.deps.resyncMs
        : "requeueAfterMs" in outcome
          ? outcome.requeueAfterMs
          : undefined;
    return { retry, requeueAfterMs, outcome: outcome.type };
  }

  private event(obj: ManagedObject, reason: EventReason, message: string, type = EventTypes[reason]): void {
    this.deps.events.emit(obj, "Account", type, reason, message);
  }

  /**
   * Reads the Secret, connects (a new client when the spec or the Secret changed) and makes the
   * cheap authenticated call; the entry records the result, which `get` answers from. Resolves
   * with the host that answered.
   */
  private async check(key: string, namespace: string, name: string, obj: ManagedObject): Promise<string> {
    let entry = this.entries.get(key);
    const firstCheck = entry === undefined;
    try {
      const ahead = await this.takeAhead(key, obj.metadata.resourceVersion);
      const { fingerprint, spec, auth } = ahead ?? (await this.credentials(namespace, obj));
      if (entry?.fingerprint !== fingerprint) {
        // A reconcile that took the old client may still be calling with it: retired, not closed.
        if (entry?.client) this.retired.retire(entry.client);
        const client = ahead?.client ?? this.kind.connect(spec, auth, { namespace, name });
        entry = { fingerprint, client, verified: false, worked: false };
        this.entries.set(key, entry);
      }
      const wait = ahead ? ahead.check : this.kind.verify(entry.client);
      const checked = this.deps.lend ? await this.deps.lend(wait) : await wait;
      if ("failed" in checked) throw checked.failed;
      const wasVerified = entry.verified;
      entry.verified = true;
      entry.worked = true;
      entry.error = undefined;
      entry.reason = undefined;
      entry.failingSince = undefined;
      this.parked.delete(key);
      if (!wasVerified) {
        // Ready may already be True from an earlier run (no status flip, no watch event):
        // dependents are told directly.
        this.deps.onVerified?.(key);
        // An operator start finding what the Account's Ready already says has nothing new to tell.
        if (!(firstCheck && readyAsChecked(obj, checked.host)))
          this.event(obj, EventReason.CredentialsValid, `credentials work; host ${checked.host}`);
      }
      return checked.host;
    } catch (caught) {
      const error = problem.explainAccountError(this.deps.explain, caught, obj);
      const failed = outcomeOf(error, () => false);
      entry ??= this.entries.get(key);
      if (!entry) {
        entry = { fingerprint: "", client: undefined, verified: false, worked: false };
        this.entries.set(key, entry);
      }
      entry.verified = false;
      entry.error = "message" in failed ? failed.message : undefined;
      entry.reason = "reason" in failed ? failed.reason : undefined;
      entry.failingSince ??= this.deps.clock.now();
      throw error;
    }
  }

  /** Waits, with the reconcile's slot lent, until the audit lines of the Account's resources are written. */
  private async auditSettled(namespace: string, name: string): Promise<void> {
    const settled = this.deps.auditSettled?.(namespace, name);
    if (settled) await (this.deps.lend ? this.deps.lend(settled) : settled);
  }

  /**
   * An Account being deleted keeps a client for its dependents' deletes: the one it has if it ever
   * worked, else one made from the Secret if it is still there (an operator started after the
   * deletion began). Resolves with why there is none, if there is none.
   */
  private async keepForDeletes(
    key: string,
    namespace: string,
    name: string,
    obj: ManagedObject,
  ): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (entry?.client && (entry.verified || entry.worked)) return undefined;
    try {
      await this.check(key, namespace, name, obj);
      return undefined;
    } catch {
      return this.entries.get(key)?.error ?? "credentials not verified";
    }
  }

  /** The Account is gone from the cache (its informer delivered the deletion). */
  forget(namespace: string, name: string): Promise<void> {
    return this.drop(objectKey("Account", namespace, name));
  }

  /** The per-Account maps (see footprint.ts). */
  footprint(): Footprint {
    return {
      "accounts.entries": keyed(this.entries),
      "accounts.parked": keyed(this.parked),
      "accounts.ahead": this.ahead.footprint(),
      "accounts.retired": this.retired.footprint(),
      ...this.kind.footprint?.(),
    };
  }

  private async drop(key: string): Promise<void> {
    await this.takeAhead(key, undefined);
    const entry = this.entries.get(key);
    this.entries.delete(key);
    const { namespace, name } = parseKey(key);
    this.deps.problems?.forget(problem.accountSubject(namespace, name));
    if (entry?.client) await this.kind.close(entry.client).catch(() => {});
    if (this.parked.delete(key)) this.deps.onVerified?.(key);
    this.kind.forget?.(parseKey(key));
  }
}

/** The Account's status says its current spec was checked against `host` and worked. */
function readyAsChecked(obj: ManagedObject, host: string): boolean {
  const ready = obj.status?.conditions?.find((c) => c.type === "Ready");
  return (
    ready?.status === "True" &&
    ready.reason === Reason.Available &&
    obj.status?.observedGeneration === obj.metadata.generation &&
    obj.status?.host === host
  );
}
