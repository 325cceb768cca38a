/**
 * Loose matching of a command's documented output (a ```text block) against what it printed.
 *
 * The documented output is a set of stable fragments, not a transcript:
 * - each non-blank line must appear in the output, in the documented order; other lines may
 *   come between, and a line of `...` is only a visual hint of that;
 * - a line matches a run of whitespace-separated words of an output line, so columns may be
 *   padded differently and a line may be a fragment (not the whole output line);
 * - numbers are not compared: every run of digits matches any run of digits (ports, hrefs'
 *   ids, ages, durations), while the text around them must be there;
 * - `<word>` (no spaces) matches any text within a word: `<repo>/.svc-operator/kubeconfig`.
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One documented word as a pattern for one printed word. */
export function wordPattern(word: string): RegExp {
  const source = word
    .split(/(<[^<>\s]+>)/)
    .map((part, i) => (i % 2 === 1 ? "\\S*" : escapeRegExp(part).replace(/\d+/g, "\\d+")))
    .join("");
  return new RegExp(`^${source}$`);
}

const words = (line: string) => line.trim().split(/\s+/).filter(Boolean);

function lineMatches(expected: RegExp[], actual: string[]): boolean {
  for (let start = 0; start + expected.length <= actual.length; start++)
    if (expected.every((p, k) => p.test(actual[start + k]!))) return true;
  return false;
}

/**
 * The documented lines that do not appear (in order) in `actual`: empty when it matches.
 * After the first missing line the rest are not looked for (they would all be "missing").
 */
export function missingLines(expected: string, actual: string): string[] {
  const wanted = expected
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && l !== "..." && l !== "…");
  const printed = actual.split("\n").map(words);
  let from = 0;
  for (const [index, line] of wanted.entries()) {
    const patterns = words(line).map(wordPattern);
    let found = -1;
    for (let i = from; i < printed.length; i++) {
      if (lineMatches(patterns, printed[i]!)) {
        found = i;
        break;
      }
    }
    if (found === -1) return wanted.slice(index);
    from = found + 1;
  }
  return [];
}
