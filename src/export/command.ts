import * as z from "zod";
import type { ServiceApi } from "../api/index.ts";
import {
  type AccountAccess,
  accessFlags,
  accessFromCluster,
  accessFromEnv,
  accessSchema,
  type CallCounter,
  ClusterReader,
  describeFailure,
  namespacedName,
  readOnlyServiceApi,
} from "../inventory/index.ts";
import { managedKinds } from "../kinds/index.ts";
import { type CommandIo, defineCommand, UsageError } from "../lib/cli/index.ts";

/** Exit codes: 0 done, 1 error, 2 bad flags (main), 3 partial (a kind the service refused, or an object, was skipped). */
export const EXIT_PARTIAL = 3;

const dnsLabel = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "must be a DNS label such as team-a");

const schema = z
  .object({
    ...accessSchema,
    account: namespacedName.optional(),
    out: z
      .string({ error: "is required: a directory, or - for one YAML stream on stdout" })
      .min(1, "must not be empty"),
    namespace: dnsLabel.optional(),
    kinds: z.string().optional(),
    filter: z.array(z.string()).optional(),
    manage: z.boolean().optional(),
    layout: z.enum(["kind", "object"], { error: "must be kind or object" }).default("kind"),
    force: z.boolean().optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    const fail = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (o.account && o.endpoint) fail("account", "give either --account or --endpoint, not both");
    else if (o.endpoint && o["account-id"] === undefined) fail("account-id", "is required with --endpoint");
    else if (o["account-id"] !== undefined && !o.endpoint) fail("endpoint", "is required with --account-id");
    else if (!o.account && !o.endpoint)
      fail(
        "account",
        "is required (NAMESPACE/NAME of an Account in the cluster), or give --endpoint and --account-id",
      );
    if (o.kubeconfig && o.endpoint)
      fail("kubeconfig", "reads an Account: use it with --account, not --endpoint");
    if (o.force && o.out === "-") fail("force", "is for --out DIR: a stream on stdout overwrites nothing");
  });

type Options = z.output<typeof schema>;

/** The account to read: an Account of the cluster (and its Secret), or the flags and the environment. */
async function access(o: Options, env: NodeJS.ProcessEnv): Promise<AccountAccess> {
  if (o.endpoint) return accessFromEnv(o.endpoint, o["account-id"]!, env);
  const reader = new ClusterReader(o.kubeconfig);
  try {
    return await accessFromCluster(reader, o.account!.namespace, o.account!.name);
  } finally {
    await reader.close();
  }
}

/** A progress line on a terminal, redrawn in place; nothing otherwise. */
function progressLine(io: CommandIo): ((done: number, total: number) => void) | undefined {
  if (!io.tty?.err || !io.errRaw) return undefined;
  const write = io.errRaw;
  let shown = -1;
  return (done, total) => {
    const percent = Math.floor((done * 100) / Math.max(total, 1));
    if (percent === shown && done !== total) return;
    shown = percent;
    write(`\rexported ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} objects`);
    if (done === total) write("\n");
  };
}

export const exportCommand = defineCommand({
  name: "export",
  summary: "read an existing account and write manifests for its objects (adopted by href, ObserveOnly)",
  flags: {
    ...accessFlags,
    account: {
      type: "string",
      description: "the Account to read credentials from, NAMESPACE/NAME (with --kubeconfig)",
    },
    out: { type: "string", description: "directory to write, or - for one YAML stream on stdout" },
    namespace: {
      type: "string",
      description: "namespace of the manifests (default: the Account's, else default)",
    },
    kinds: { type: "string", description: "comma-separated kinds to export (default: all)" },
    filter: {
      type: "string",
      multiple: true,
      description: "KIND=NAME: only that object and what belongs to it, e.g. deployment=web (repeatable)",
    },
    manage: {
      type: "boolean",
      description: "managementPolicy Manage (with deletionPolicy Orphan) instead of ObserveOnly",
    },
    layout: {
      type: "string",
      description: "one file per kind or per object: kind or object",
      default: "kind",
    },
    force: {
      type: "boolean",
      description:
        "overwrite files in --out that export did not write (never a symbolic link: those are refused)",
    },
  },
  schema,
  async run(o, io) {
    // The exporter (with the planner's admission checks and their CEL) loads when export runs:
    // every command's definition is loaded by every command, `run` included.
    const [
      { exportAccount },
      { parseFilter, parseKinds },
      { ALWAYS_WRITTEN, files, stream },
      { checkDirectory, writeDirectory },
    ] = await Promise.all([
      import("./run.ts"),
      import("./select.ts"),
      import("./write.ts"),
      import("./directory.ts"),
    ]);
    const kinds = parseKinds(managedKinds, o.kinds);
    const filters = (o.filter ?? []).map((f) => parseFilter(kinds, f));
    const counter: CallCounter = { calls: 0 };
    let client: ServiceApi | undefined;
    let endpoint: string | undefined = o.endpoint;
    const force = { force: o.force === true };
    try {
      // What is already known to be refused is refused before the account is read.
      if (o.out !== "-") await checkDirectory(o.out, ALWAYS_WRITTEN, force);
      const account = await access(o, io.env);
      endpoint = account.endpoint;
      client = readOnlyServiceApi(
        { endpoint: account.endpoint, accountId: account.accountId, auth: account.auth },
        counter,
      );
      const namespace = o.namespace ?? o.account?.namespace ?? "default";
      const accountName = o.account?.name ?? "default";
      const result = await exportAccount({
        client,
        kinds,
        filters,
        namespace,
        accountName,
        manage: o.manage === true,
        progress: progressLine(io),
      });
      const output = {
        namespace,
        accountName,
        account: account.spec,
        secret: account.secret,
        documents: result.documents,
        layout: o.layout,
      };
      if (o.out === "-") io.out(stream(output).trimEnd());
      else await writeDirectory(o.out, files(output), force);
      for (const s of result.skipped) io.err(`warning: skipped ${s.kind}: ${s.message}`);
      for (const s of result.objectsSkipped) io.err(`warning: skipped ${s}`);
      for (const w of result.warnings) io.err(`warning: ${w}`);
      const kindsDone = new Set(result.documents.map((d) => d.plural)).size;
      io.err(
        `exported ${result.documents.length.toLocaleString("en-US")} objects of ${kindsDone} kinds` +
          `${o.out === "-" ? "" : ` to ${o.out}`} (${counter.calls} API calls)` +
          (result.skipped.length > 0 ? `; skipped ${result.skipped.map((s) => s.kind).join(", ")}` : ""),
      );
      // Partial: something the account holds could not be read or written. A kind export cannot
      // read yet (its warning says why) is a known limit of this version, not a failure of the run.
      const partial = result.skipped.some((s) => s.forbidden) || result.objectsSkipped.length > 0;
      return partial ? EXIT_PARTIAL : 0;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.err(`svc-operator export: ${describeFailure(error, endpoint)}`);
      return 1;
    } finally {
      await client?.close();
    }
  },
});
