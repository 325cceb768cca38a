import { isReported } from "../client/index.ts";
import type { PhaseRun as Run } from "./context.ts";

/**
 * Logs a failed reconcile that will be retried. What the apiserver client reported is not logged
 * again; a transient service failure many resources share (the service throttling, or down) is one
 * line per cause and Account in the ProblemLog, not one per resource and attempt; the rest, a line
 * per attempt (each key backs off on its own).
 */
export function logRetriedFailure(run: Run, error: unknown): void {
  if (isReported(error)) {
    run.log.debug("reconcile failed on an apiserver call; will retry");
    return;
  }
  const problems = run.around.problems;
  const hint = problems ? run.policy.explainServiceError?.(error, undefined) : undefined;
  if (!problems || !hint?.transient) {
    run.log.warn({ err: error }, "reconcile failed; will retry");
    return;
  }
  const { namespace, name } = run.obj.metadata;
  const account = (run.obj.spec as { accountRef?: { name?: string } } | undefined)?.accountRef?.name;
  problems.failed({
    cause: `service ${hint.cause} for Account ${namespace}/${account ?? "default"}`,
    subject: run.key,
    message: `${run.kind.kind} ${namespace}/${name}: ${hint.message}`,
    fields: { kind: run.kind.kind, namespace, name, account },
  });
}
