import { UsageError } from "./command.ts";

/** One flag that decides where a server listens, as a failed bind names it. */
export interface ListenFlag {
  /** The flag as the message shows it, with its value: `--region-port 9293`. */
  flag: string;
  host: string;
  port: number;
}

type BindFailure = NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string };

function hostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * A server that cannot bind is a usage error (exit 2): the message names the flag to change and
 * what to change it to. Node's bind errors (syscall `listen`) carry the address and port they
 * failed on, which tells which of a command's port flags it was; `hostFlag` is named when the host
 * itself is the problem. Returns undefined for any other error (a connect that fails, say), which
 * the caller rethrows unchanged.
 */
export function listenError(error: unknown, flags: ListenFlag[], hostFlag: string): UsageError | undefined {
  if (typeof error !== "object" || error === null || flags.length === 0) return undefined;
  const e = error as BindFailure;
  const host = flags[0]!.host;
  // An unresolvable host fails in getaddrinfo, not listen: only the host we bind counts.
  if ((e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") && e.hostname === host)
    return new UsageError(
      `${hostFlag}: ${host} does not resolve to an address (${e.code}); pick an address of this machine, such as 127.0.0.1`,
    );
  if (e.syscall !== "listen" && e.syscall !== "bind") return undefined;
  const hitting = flags.filter((f) => f.port !== 0 && f.port === e.port);
  // No match (a port taken between two binds of the same flag, say): name every flag.
  const named = (hitting.length > 0 ? hitting : flags).map((f) => f.flag).join(", ");
  const where = e.port === undefined ? host : hostPort(e.address ?? host, e.port);
  switch (e.code) {
    case "EADDRINUSE":
      return new UsageError(
        `${named}: address ${where} is in use (EADDRINUSE); pick another port or 0 for a free one`,
      );
    case "EACCES":
      return new UsageError(
        `${named}: not permitted to listen on ${where} (EACCES); ports below 1024 need privileges: pick one from 1024 up, or 0 for a free one`,
      );
    case "EADDRNOTAVAIL":
      return new UsageError(
        `${hostFlag}: ${host} is not an address of this machine (EADDRNOTAVAIL); pick one it has, such as 127.0.0.1 (or 0.0.0.0 for all)`,
      );
    default:
      return undefined;
  }
}
