/**
 * Finds credentials by what they are, wherever an echo of a request puts them: the value of
 * every `Cookie`, `Set-Cookie`, `Authorization` and `Proxy-Authorization` header (whatever the
 * cookies' names or the scheme), and of every token, secret and password field. No list of values
 * is involved, so nothing can be pushed out of one: a service that sets many cookies cannot make
 * the session cookie survive an echo of the request.
 *
 * An echo renders them as a header line (`Cookie: a=1; b=2`), a form field (`refresh_token=x&`),
 * JSON (`"cookie":"a=1"`, also escaped inside another JSON string), a JavaScript inspection
 * (`cookie: 'a=1'`), a raw header list (`["Cookie","a=1"]`) or URL-encoded (`cookie%3Da%3D1`).
 */

export const REDACTED = "[redacted]";

/**
 * A key, then its separator and the value's opening quote if any. Keys are matched without case,
 * not right after a letter or digit (`x_password` and `X-Cookie` count, `mypassword` does not),
 * and only with a separator right after them (`passwords: 3` is not a key).
 */
const KEY =
  /(?<![a-z0-9])(set-cookie|cookie|proxy-authorization|authorization|(?:access|refresh|id)[_-]?token|token|client[_-]?secret|pass(?:word|wd))(\\*["'])?([ \t]*:[ \t]*|=|[ \t]*,[ \t]*|%3a|%3d)(\\*["'])?/gi;
const HEADER = /^(?:set-cookie|cookie|proxy-authorization|authorization)$/i;

// How far an unquoted value runs, by what it is. Each stops at whitespace, a quote or a
// backslash (the end of a JSON string, or an escape within one) and is matched at one position.
/** `Cookie`: `name=value` pairs separated by `;` (a cookie kept by the client has no space). */
const COOKIE_LIST = /[^\s;,"\\]+(?:;[ \t]*[^\s;,"\\]+)*/y;
/** `Set-Cookie`: to the end of the line, since attributes such as Expires hold spaces and commas. */
const SET_COOKIE = /[^\r\n"\\]+/y;
/** `Authorization`: a scheme and its credentials (`Bearer abc`), or a bare credential. */
const AUTHORIZATION = /(?:[A-Za-z][\w.+-]*[ \t]+)?[^\s;,"'\\]+/y;
/** A form field's value, to the next field. */
const FORM_VALUE = /[^\s&;,"'\\]+/y;
/** A URL-encoded value (its own `;` and spaces are escaped), to the next field. */
const ENCODED_VALUE = /[^\s&"'\\]+/y;

/** Replaces the value of every credential header and field in `text` with REDACTED. */
export function redactFields(text: string): string {
  let out = "";
  let copied = 0;
  KEY.lastIndex = 0;
  for (let m = KEY.exec(text); m !== null; m = KEY.exec(text)) {
    const start = m.index + m[0].length;
    const end = valueEnd(text, start, m[1]!, m[2], m[3]!, m[4]);
    if (end === start) continue;
    out += text.slice(copied, start) + REDACTED;
    copied = end;
    KEY.lastIndex = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Where the value that starts at `start` ends (`start` when there is none to redact). */
function valueEnd(
  text: string,
  start: number,
  key: string,
  keyQuote: string | undefined,
  separator: string,
  quote: string | undefined,
): number {
  const sep = separator.trim().toLowerCase();
  const header = HEADER.test(key);
  // `"Cookie", "a=1"` is a raw header list; `["password", "is too short"]` a field and its error.
  if (sep === "," && !(header && keyQuote !== undefined && quote !== undefined)) return start;
  if (quote !== undefined) return closingQuote(text, start, quote);
  const open = text[start];
  if (open === "[" || open === "{") return bracketEnd(text, start);
  if (sep === "%3a" || sep === "%3d") return runEnd(ENCODED_VALUE, text, start);
  // `password: is too short` is prose; a field's unquoted value follows only `=` (a form).
  if (!header) return sep === "=" ? runEnd(FORM_VALUE, text, start) : start;
  const name = key.toLowerCase();
  const grammar = name === "set-cookie" ? SET_COOKIE : name === "cookie" ? COOKIE_LIST : AUTHORIZATION;
  return runEnd(grammar, text, start);
}

function runEnd(grammar: RegExp, text: string, start: number): number {
  grammar.lastIndex = start;
  const run = grammar.exec(text);
  return run === null ? start : start + run[0].length;
}

/** The closing quote's index, or the text's end when the value was cut before it. */
function closingQuote(text: string, start: number, quote: string): number {
  if (quote.length === 1) {
    for (let i = start; i < text.length; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === quote) return i;
    }
    return text.length;
  }
  // A quote escaped inside a JSON string (`\"`): the same escape closes it; one with more
  // backslashes before it is a quote within the value.
  for (let i = text.indexOf(quote, start); i !== -1; i = text.indexOf(quote, i + 1))
    if (text[i - 1] !== "\\") return i;
  return text.length;
}

/** Past the bracket that closes the list or object at `start` (quoted brackets do not count). */
function bracketEnd(text: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if ((c === "]" || c === "}") && --depth === 0) return i + 1;
  }
  return text.length;
}
