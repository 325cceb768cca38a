import { badRequest } from "./errors.ts";
import { isObj, type Obj } from "./meta.ts";

/** One requirement of a label selector, as k8s.io/apimachinery/pkg/labels parses it. */
export interface LabelRequirement {
  key: string;
  op: "=" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";
  values: string[];
}

export type LabelSelector = LabelRequirement[];

const KEY_CHAR = /[A-Za-z0-9_.\-/]/;
const VALUE_CHAR = /[A-Za-z0-9_.-]/;

/** Parses `a=b,c!=d,e in (f,g),h notin (i),j,!k`; throws a 400 naming what was wrong. */
export function parseLabelSelector(input: string | undefined): LabelSelector {
  const text = (input ?? "").trim();
  if (text === "") return [];
  let pos = 0;
  const fail = (detail: string) => badRequest(`unable to parse requirement: ${detail}`);
  const skipSpaces = () => {
    while (pos < text.length && text[pos] === " ") pos++;
  };
  const readWhile = (re: RegExp) => {
    const start = pos;
    while (pos < text.length && re.test(text[pos]!)) pos++;
    return text.slice(start, pos);
  };
  const readWord = () => {
    skipSpaces();
    return readWhile(/[A-Za-z]/);
  };
  const result: LabelSelector = [];
  for (;;) {
    skipSpaces();
    let negated = false;
    if (text[pos] === "!") {
      negated = true;
      pos++;
      skipSpaces();
    }
    const key = readWhile(KEY_CHAR);
    if (key === "") throw fail(`found '${text[pos] ?? ""}', expected: identifier`);
    skipSpaces();
    if (negated) {
      result.push({ key, op: "!", values: [] });
    } else if (pos >= text.length || text[pos] === ",") {
      result.push({ key, op: "exists", values: [] });
    } else if (text.startsWith("==", pos) || text.startsWith("!=", pos) || text[pos] === "=") {
      const op = text[pos] === "!" ? "!=" : "=";
      pos += text.startsWith("==", pos) || text.startsWith("!=", pos) ? 2 : 1;
      skipSpaces();
      const value = readWhile(VALUE_CHAR);
      result.push({ key, op, values: [value] });
    } else if (text[pos] === ">" || text[pos] === "<") {
      const op = text[pos] === ">" ? "gt" : "lt";
      pos++;
      skipSpaces();
      const value = readWhile(/[0-9-]/);
      if (!/^-?\d+$/.test(value)) throw fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
      result.push({ key, op, values: [value] });
    } else {
      const word = readWord();
      if (word !== "in" && word !== "notin") {
        throw fail(`found '${word || text[pos]}', expected: in, notin, =, ==, !=, gt, lt`);
      }
      skipSpaces();
      if (text[pos] !== "(") throw fail(`found '${text[pos] ?? ""}', expected: '('`);
      pos++;
      const values: string[] = [];
      for (;;) {
        skipSpaces();
        values.push(readWhile(VALUE_CHAR));
        skipSpaces();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === ")") {
          pos++;
          break;
        }
        throw fail(`found '${text[pos] ?? ""}', expected: ',', ')' or identifier`);
      }
      result.push({ key, op: word, values });
    }
    skipSpaces();
    if (pos >= text.length) break;
    if (text[pos] !== ",") throw fail(`found '${text[pos]}', expected: ',' or 'end of string'`);
    pos++;
  }
  return result;
}

export function matchesLabels(selector: LabelSelector, labels: unknown): boolean {
  const map = isObj(labels) ? (labels as Record<string, string>) : {};
  for (const req of selector) {
    const has = Object.hasOwn(map, req.key);
    const value = map[req.key];
    switch (req.op) {
      case "=":
        if (!has || value !== req.values[0]) return false;
        break;
      case "!=":
        if (has && value === req.values[0]) return false;
        break;
      case "in":
        if (!has || !req.values.includes(value!)) return false;
        break;
      case "notin":
        if (has && req.values.includes(value!)) return false;
        break;
      case "exists":
        if (!has) return false;
        break;
      case "!":
        if (has) return false;
        break;
      case "gt":
      case "lt": {
        const n = Number(value);
        if (!has || !/^-?\d+$/.test(value!)) return false;
        if (req.op === "gt" ? !(n > Number(req.values[0])) : !(n < Number(req.values[0]))) return false;
        break;
      }
    }
  }
  return true;
}

export interface FieldRequirement {
  field: string;
  op: "=" | "!=";
  value: string;
}

/** Parses `metadata.name=x,metadata.namespace!=y`; only `supported` fields are allowed (400 otherwise). */
export function parseFieldSelector(input: string | undefined, supported: string[]): FieldRequirement[] {
  const text = (input ?? "").trim();
  if (text === "") return [];
  return text.split(",").map((part) => {
    const match = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(part);
    if (!match) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const field = match[1]!;
    if (!supported.includes(field)) {
      throw badRequest(`field label not supported: ${field}`);
    }
    return { field, op: match[2] === "!=" ? "!=" : "=", value: match[3]! };
  });
}

export function fieldValue(object: Obj, path: string): string {
  let current: unknown = object;
  for (const part of path.split(".")) {
    if (!isObj(current)) return "";
    current = current[part];
  }
  if (current === undefined || current === null) return "";
  return typeof current === "string" ? current : String(current);
}

export function matchesFields(selector: FieldRequirement[], object: Obj): boolean {
  return selector.every((req) => (fieldValue(object, req.field) === req.value) === (req.op === "="));
}
