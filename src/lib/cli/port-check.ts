import { createServer } from "node:net";
import { UsageError } from "./command.ts";
import { type ListenFlag, listenError } from "./listen-error.ts";

/** Bind failures that are the host's, not the port's (see listenError). */
const HOST_ERRORS = new Set(["EADDRNOTAVAIL", "ENOTFOUND", "EAI_AGAIN"]);

/** Binds `port` on `host` and lets it go: the bind's error, or undefined when it is free. */
function tryBind(host: string, port: number): Promise<unknown> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", resolve);
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/**
 * Tries every port a command is about to listen on before it starts anything, so that one
 * error names every flag to change rather than one per run: each port is bound and let go in
 * turn (0 picks a free one: nothing to check), and two flags giving the same port are named
 * too. Undefined when all are usable. A bind failure that is the host's (an address this
 * machine lacks) is the whole answer: every port would fail the same way. A port taken between
 * this check and the real bind still fails there, as listenError says.
 */
export async function checkPorts(flags: ListenFlag[], hostFlag: string): Promise<UsageError | undefined> {
  const problems: string[] = [];
  const byPort = new Map<number, ListenFlag[]>();
  for (const f of flags) if (f.port !== 0) byPort.set(f.port, [...(byPort.get(f.port) ?? []), f]);
  for (const [port, same] of byPort) {
    if (same.length > 1) {
      problems.push(
        `${same.map((f) => f.flag).join(", ")}: the same port for ${same.length} servers; give each its own, or 0 for a free one`,
      );
      continue;
    }
    const error = await tryBind(same[0]!.host, port);
    if (error === undefined) continue;
    const usage = listenError(error, same, hostFlag);
    // Anything else (out of file descriptors, say) is left to the real bind to report.
    if (!usage) continue;
    if (HOST_ERRORS.has((error as NodeJS.ErrnoException).code ?? "")) return usage;
    problems.push(usage.message);
  }
  if (problems.length === 0) return undefined;
  if (problems.length === 1) return new UsageError(problems[0]!);
  return new UsageError(
    [`${problems.length} of the ports cannot be used:`, ...problems.map((p) => `  ${p}`)].join("\n"),
  );
}
