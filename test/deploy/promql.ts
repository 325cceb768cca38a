// The metric names and label matchers a PromQL expression uses, for the tests that check the
// shipped alerts and dashboard against what the operator exports. Not a parser: it strips what
// cannot name a metric (strings, label matchers, ranges, grouping clauses, function calls,
// keywords, numbers) and keeps the identifiers left.

const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "and",
  "or",
  "unless",
  "offset",
]);

/** Each metric the expression selects, with the label names its matchers use. */
export function metricRefs(expr: string): { name: string; labels: string[] }[] {
  const refs: { name: string; labels: string[] }[] = [];
  const text = expr
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  for (const m of text.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?(\s*\()?/g)) {
    const [, name, matchers, call] = m;
    if (call || KEYWORDS.has(name!) || /^\$/.test(text[m.index - 1] ?? "")) continue;
    // A label name inside a matcher that failed to attach (e.g. `{job="x"}` alone) is not a metric.
    if (isInsideBraces(text, m.index)) continue;
    const labels = [...(matchers ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)].map(
      (l) => l[1]!,
    );
    refs.push({ name: name!, labels });
  }
  return refs;
}

/** The label names of the expression's grouping clauses (`by (...)`, `on (...)`, ...). */
export function groupingLabels(expr: string): string[] {
  return [...expr.matchAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g)].flatMap(
    (m) =>
      m[1]!
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean),
  );
}

function isInsideBraces(text: string, index: number): boolean {
  const open = text.lastIndexOf("{", index);
  return open !== -1 && text.lastIndexOf("}", index) < open;
}

/**
 * The family a series name belongs to among `families`: itself, or a histogram's or summary's
 * family for its `_bucket`, `_sum` and `_count` series.
 */
export function familyOf(name: string, families: ReadonlySet<string>): string | undefined {
  if (families.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, "");
  return families.has(base) ? base : undefined;
}
