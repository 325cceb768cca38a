import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parseAllDocuments } from "yaml";

/** The annotation a corpus file puts on its subject: `<where>: <text the error must contain>`. */
export const EXPECT_ANNOTATION = "test.svc.io/expect";

export const CORPUS_DIR = join(import.meta.dirname, "..", "fixtures", "invalid");

export interface CorpusDoc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  stringData?: Record<string, string>;
  /** A ConfigMap's data (a key a resource reads). */
  data?: Record<string, string>;
}

/**
 * `admission`: the API server rejects the subject (create, or the update of an earlier document
 * of the same file) with the needle in its message. `Stalled`: Stalled=True with the needle in its
 * message. Any other word is the reason of Ready=False (DependencyNotReady, SecretKeyMissing, ...).
 */
export interface Expectation {
  where: string;
  needle: string;
}

export interface CorpusCase {
  file: string;
  /** Documents applied in order; the last one is the subject. */
  docs: CorpusDoc[];
  subject: CorpusDoc;
  expect: Expectation;
}

export function parseExpectation(text: string): Expectation {
  const m = /^(\w+):\s*(.+)$/.exec(text);
  if (!m) throw new Error(`${EXPECT_ANNOTATION} must read "<where>: <text>", got "${text}"`);
  return { where: m[1]!, needle: m[2]! };
}

/** Reads every corpus file; `${SIM_URL}` in a file is replaced by `vars.SIM_URL`. */
export async function loadCorpus(vars: Record<string, string>): Promise<CorpusCase[]> {
  const files = (await readdir(CORPUS_DIR)).filter((f) => f.endsWith(".yaml")).sort();
  const cases: CorpusCase[] = [];
  for (const file of files) {
    let text = await readFile(join(CORPUS_DIR, file), "utf8");
    for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`\${${k}}`, v);
    const docs = parseAllDocuments(text)
      .map((d) => d.toJS() as CorpusDoc)
      .filter(Boolean);
    const subjects = docs.filter((d) => d.metadata.annotations?.[EXPECT_ANNOTATION] !== undefined);
    if (subjects.length !== 1 || docs.at(-1) !== subjects[0])
      throw new Error(`${file}: exactly one document, the last, must carry ${EXPECT_ANNOTATION}`);
    const subject = subjects[0]!;
    cases.push({
      file: basename(file, ".yaml"),
      docs,
      subject,
      expect: parseExpectation(subject.metadata.annotations![EXPECT_ANNOTATION]!),
    });
  }
  return cases;
}
