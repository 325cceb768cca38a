import type * as z from "zod";
import type { Footprint } from "../../lib/index.ts";

/** What the Account kind provides: reading credentials, connecting, a cheap authenticated check. */
export interface AccountKind<S, Auth, C> {
  schema: z.ZodType<S>;
  /** Reads the Secrets the spec names; throws `secretProblem` (SecretNotFound, SecretKeyMissing) naming what is missing. */
  credentials(
    spec: S,
    readSecret: (name: string) => Promise<Record<string, string> | undefined>,
  ): Promise<Auth>;
  connect(spec: S, auth: Auth, account: { namespace: string; name: string }): C;
  /** A cheap authenticated call; resolves with the host that answered. Throws `credentialsRefused` when they are refused. */
  verify(client: C): Promise<{ host: string }>;
  /** Closes the client gracefully: the calls in flight on it end first. */
  close(client: C): Promise<void>;
  /**
   * Throws (a TerminalError) when the operator must not use the spec at all, before any Secret is
   * read: an endpoint outside --allowed-endpoints.
   */
  admit?(spec: S): void;
  /** The Account is gone: drop what is kept for it beside its client (its token bucket). */
  forget?(account: { namespace: string; name: string }): void;
  /** What it keeps per Account beside the clients (see footprint.ts). */
  footprint?(): Footprint;
}

/** Any Account kind, as the runtime holds it. */
export type SomeAccountKind = AccountKind<unknown, unknown, unknown>;

/** An Account's spec, the credentials its Secret holds, and a fingerprint of both (a change means a new client). */
export interface AccountCredentials {
  fingerprint: string;
  spec: unknown;
  auth: unknown;
}
