/**
 * Writing a typed value back out: the 2.0 notation for clients, and the per-view spellings the
 * inputs index views show (the 1.0 comma form only where it reads back as the same value).
 */
import { IGNORE_SPELLINGS, type InputValue, type InputView, isTypePrefix } from "./input-value.ts";

/** Formats a typed value in the 2.0 notation; `parseInputValue(n, formatInputValue(v), "2.0")` gives `v` back. */
export function formatInputValue(value: InputValue): string {
  switch (value.type) {
    case "text":
      return `text:${value.value}`;
    case "blank":
      return "blank";
    case "ignore":
      return "ignore";
    case "inherit":
      return "inherit";
    case "env":
      return value.component === undefined
        ? `env:${value.variable}`
        : `env:${value.component}:${value.variable}`;
    case "cred":
      return `cred:${value.name}`;
    case "key":
      return value.cloudId === undefined ? `key:${value.name}` : `key:${value.name}:${value.cloudId}`;
    case "array":
      return `array:${JSON.stringify(value.items.map(formatInputValue))}`;
  }
}

/**
 * Renders a stored value for an inputs index (or a deployment's inputs view).
 * `default` / `inputs`: unset (blank) is `text:`, ignore is `ignore:$ignore`; an array of
 * plain text without commas uses the 1.0 comma form, any other array the 2.0 JSON form.
 * `inputs_2_0`: the 2.0 notation (`blank`, `ignore`).
 */
export function renderInputValue(value: InputValue, view: InputView): string {
  if (view === "inputs_2_0") return value.type === "inherit" ? "ignore" : formatInputValue(value);
  switch (value.type) {
    case "blank":
      return "text:";
    case "ignore":
    case "inherit":
      return "ignore:$ignore";
    case "array": {
      const plain = value.items.every((item) => item.type === "text" && isPlain10Element(item.value));
      if (!plain) return formatInputValue(value);
      return `array:${value.items.map((item) => (item.type === "text" ? item.value : "")).join(",")}`;
    }
    default:
      return formatInputValue(value);
  }
}

/** True when `text` reads back as the same text element of a 1.0 comma list. */
function isPlain10Element(text: string): boolean {
  if (text.includes(",") || IGNORE_SPELLINGS.has(text)) return false;
  const colon = text.indexOf(":");
  return colon < 0 || !isTypePrefix(text.slice(0, colon));
}
