import * as z from "zod";
import type { CallCounter } from "../inventory/index.ts";
import {
  accessFlags,
  accessFromEnv,
  accessSchema,
  ClusterReader,
  describeFailure,
} from "../inventory/index.ts";
import { managedKinds } from "../kinds/index.ts";
import { type CommandIo, defineCommand, UsageError } from "../lib/cli/index.ts";
import { API_VERSION } from "../runtime/sdk/index.ts";

/**
 * Exit codes, as `terraform plan -detailed-exitcode`: 0 no changes, 2 changes and nothing else,
 * 1 any error (a bad flag, a manifest that cannot be read or cannot be applied, a failed read).
 */
export const EXIT_CHANGES = 2;

const schema = z
  .object({
    ...accessSchema,
    filename: z.string({
      error: "is required: a manifest file, a directory (kustomize or not), or - for stdin",
    }),
    output: z.enum(["table", "json", "yaml"], { error: "must be table, json or yaml" }).default("table"),
    namespace: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "must be a DNS label such as team-a")
      .default("default"),
    "no-cluster": z.boolean().optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    const fail = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (o.endpoint && o["account-id"] === undefined) fail("account-id", "is required with --endpoint");
    else if (o["account-id"] !== undefined && !o.endpoint) fail("endpoint", "is required with --account-id");
    if (o["no-cluster"] && !o.endpoint)
      fail(
        "no-cluster",
        "needs --endpoint and --account-id: without a cluster there is no Account to read credentials from",
      );
    if (o["no-cluster"] && o.kubeconfig) fail("kubeconfig", "cannot be used with --no-cluster");
  });

export const planCommand = defineCommand({
  name: "plan",
  summary: "show what the operator would do now for a set of manifests, writing nothing (exit 2: changes)",
  // 2 means "changes present" alone: a pipeline gating on it must not take a typo for a change.
  usageExitCode: 1,
  flags: {
    filename: {
      type: "string",
      short: "f",
      description: "manifests: a file, a directory (kustomize or not), or - for stdin",
    },
    output: { type: "string", short: "o", description: "table, json or yaml", default: "table" },
    namespace: { type: "string", description: "namespace of manifests that name none", default: "default" },
    ...accessFlags,
    kubeconfig: {
      type: "string",
      description:
        "kubeconfig of the cluster: the objects already there, the Accounts and their Secrets (default: $KUBECONFIG, ~/.kube/config)",
    },
    "no-cluster": {
      type: "boolean",
      description: "read nothing from a cluster: hrefs only from the annotation (needs --endpoint)",
    },
  },
  schema,
  async run(o, io) {
    try {
      return await plan(o, io);
    } catch (error) {
      // A bad flag's value found late (a kubeconfig, the environment) is a UsageError: the CLI says
      // it in one line, with this command's usage exit code. Anything else is one line here: a
      // failure is 1 and never a stack trace, so 2 stays "changes present".
      if (error instanceof UsageError) throw error;
      io.err(`svc-operator plan: ${describeFailure(error, o.endpoint)}`);
      return 1;
    }
  },
});

async function plan(o: z.output<typeof schema>, io: CommandIo): Promise<number> {
  // The planner (with the devcluster's admission checks and their CEL) loads when plan runs:
  // every command's definition is loaded by every command, `run` included.
  const [
    { PlanAccounts },
    { CHANGES, STOPPED },
    { Planner },
    { LiveObjects },
    { ManifestError, readManifests },
    { render },
    { accountScope },
    { planSources },
  ] = await Promise.all([
    import("./accounts.ts"),
    import("./answer.ts"),
    import("./evaluate.ts"),
    import("./live.ts"),
    import("./manifests.ts"),
    import("./output.ts"),
    import("./scope.ts"),
    import("./sources.ts"),
  ]);
  const stdin = io.stdin ?? (() => Promise.reject(new UsageError("-f -: no standard input here")));
  let manifests: Awaited<ReturnType<typeof readManifests>>;
  try {
    manifests = await readManifests(o.filename, stdin);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    io.err(`svc-operator plan: ${error.message}`);
    return 1;
  }
  const namespaceOf = (m: { object: Record<string, unknown> }) =>
    ((m.object.metadata ?? {}) as { namespace?: string }).namespace ?? o.namespace;
  const ours = manifests.filter((m) => m.object.apiVersion === API_VERSION);
  const accounts = new Map(
    ours
      .filter((m) => m.object.kind === "Account")
      .map((m) => [
        `${namespaceOf(m)}/${(m.object.metadata as { name?: string } | undefined)?.name}`,
        m.object,
      ]),
  );
  const counter: CallCounter = { calls: 0 };
  const reader = o["no-cluster"] ? undefined : new ClusterReader(o.kubeconfig);
  const fixed = o.endpoint ? accessFromEnv(o.endpoint, o["account-id"]!, io.env) : undefined;
  const clients = new PlanAccounts({ fixed, reader, manifests: accounts, counter });
  try {
    const namespaces = new Set(ours.map(namespaceOf));
    const live = await LiveObjects.load(reader, managedKinds, namespaces);
    const unchecked = live.uncheckedNote(managedKinds.length);
    if (unchecked) io.err(`svc-operator plan: ${unchecked}`);
    const planner = new Planner({
      manifests,
      kinds: managedKinds,
      namespace: o.namespace,
      live,
      cluster: reader !== undefined,
      accounts: clients,
      scopeOf: accountScope({
        live,
        manifests: accounts,
        ...(fixed ? { fixed: { accountId: fixed.accountId, namespaces } } : {}),
      }),
      sources: planSources(manifests, o.namespace, reader),
    });
    const results = await planner.plan();
    io.out(render(results, counter.calls, o.output));
    if (results.some((r) => STOPPED.has(r.action))) return 1;
    return results.some((r) => CHANGES.has(r.action)) ? EXIT_CHANGES : 0;
  } finally {
    await clients.close();
    await reader?.close();
  }
}
