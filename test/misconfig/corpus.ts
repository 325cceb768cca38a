import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parse } from "yaml";
import * as z from "zod";

/**
 * The misconfiguration corpus: one file per way the operator's own environment can be wrong
 * (test/fixtures/misconfig/*.yaml). A file says what is broken and when, the line the operator must
 * log, how many lines it may write meanwhile, and what mends it; environment.ts knows how to break
 * and mend each thing, misconfig.test.ts runs every case the same way.
 */
export const MISCONFIG_DIR = join(import.meta.dirname, "..", "fixtures", "misconfig");

const denyRule = z
  .object({
    verb: z.string(),
    resource: z.string(),
    group: z.string().optional(),
    subresource: z.string().optional(),
  })
  .strict();

/** What is broken: exactly one of these. */
export const breakSchema = z.union([
  /** That CRD (its plural) is not installed. */
  z.object({ crdMissing: z.string() }).strict(),
  /** The devcluster answers these requests with kube-apiserver's 403 (its deny hook). */
  z.object({ deny: z.array(denyRule).min(1) }).strict(),
  /** Nothing listens at the kubeconfig's server address. */
  z.object({ apiserver: z.literal("down") }).strict(),
  /** The kubeconfig's credentials (an exec plugin's token) are not the apiserver's: 401. */
  z.object({ token: z.literal("refused") }).strict(),
  /** --kubeconfig names a file that does not exist. */
  z.object({ kubeconfig: z.literal("missing") }).strict(),
  /** The Account's spec.endpoint: nothing listening, a certificate nobody trusts, a host that does not resolve, an HTML page. */
  z.object({ endpoint: z.enum(["refused", "tls", "unresolvable", "html"]) }).strict(),
  /** The simulator's fault set (`POST /__sim/faults`), e.g. 429 to every call. */
  z.object({ faults: z.record(z.string(), z.number()) }).strict(),
  /** The simulator's clock moved ahead this far. */
  z.object({ clockAheadSeconds: z.number().int().positive() }).strict(),
  /** The Account's Secret changed to credentials the service refuses (and the Account asked to check again). */
  z.object({ secret: z.literal("wrong") }).strict(),
]);

/** What mends it (matching the break). */
export const fixSchema = z.union([
  z.object({ installCrd: z.string() }).strict(),
  z.object({ allow: z.literal("all") }).strict(),
  z.object({ apiserver: z.literal("up") }).strict(),
  z.object({ token: z.literal("valid") }).strict(),
  z.object({ endpoint: z.literal("simulator") }).strict(),
  z.object({ faults: z.literal("none") }).strict(),
  z.object({ secret: z.literal("restored") }).strict(),
]);

export const caseSchema = z
  .object({
    description: z.string().min(1),
    /** `start`: broken before the operator starts. `running`: broken once its resources are Ready. */
    breaks: z.enum(["start", "running"]),
    break: breakSchema,
    /** Absent when nothing needs mending (the operator must cope) or it must exit instead. */
    fix: fixSchema.optional(),
    /** Run the operator with leader election (its Lease calls fail with the rest). */
    leaderElect: z.boolean().default(false),
    /** Seconds the environment stays broken once the expected line was logged. */
    holdSeconds: z.number().min(0).max(60).default(4),
    expect: z
      .object({
        /**
         * A fragment of the one line naming the cause and the fix, logged once while broken.
         * `null`: nothing at warn or above (the operator copes without a word).
         */
        log: z.string().min(1).nullable(),
        /** Lines the operator may write from the break to the fix, all levels, per minute begun. */
        maxLines: z.number().int().min(0),
        /** /readyz fails while broken (informers cannot list). */
        unready: z.boolean().default(false),
        /** A condition of the case's Account or a probe Deployment while broken. */
        condition: z
          .object({
            object: z.enum(["Account", "before", "during"]),
            reason: z.string(),
            message: z.string(),
          })
          .strict()
          .optional(),
        /** The operator exits with this code instead (and `log` is a fragment of what it printed). */
        exit: z.number().int().optional(),
        /** The operator got a new access token while broken (the one it held expired on the service's clock). */
        renewsToken: z.boolean().default(false),
      })
      .strict(),
  })
  .strict();

export type MisconfigCase = z.output<typeof caseSchema> & { name: string };
export type Break = z.output<typeof breakSchema>;
export type Fix = z.output<typeof fixSchema>;

/** Every case file, validated (a bad file fails naming it and the field). */
export async function loadMisconfigCases(): Promise<MisconfigCase[]> {
  const files = (await readdir(MISCONFIG_DIR)).filter((f) => f.endsWith(".yaml")).sort();
  const cases: MisconfigCase[] = [];
  for (const file of files) {
    const parsed = caseSchema.safeParse(parse(await readFile(join(MISCONFIG_DIR, file), "utf8")));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${file}: ${issue.path.join(".")}: ${issue.message}`);
    }
    cases.push({ ...parsed.data, name: basename(file, ".yaml") });
  }
  return cases;
}
