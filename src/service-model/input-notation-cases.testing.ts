import type { InputNotation, InputValue } from "./input-notation.ts";

// Shared by the input-notation-*.test.ts files: the valid values are parsed in one and
// round-tripped through formatInputValue in the other.

export const text = (value: string): InputValue => ({ type: "text", value });

export interface GoodCase {
  reason: string;
  notation: InputNotation;
  raw: string;
  want: InputValue;
}

export const good: GoodCase[] = [
  { reason: "1.0 unprefixed value is text", notation: "1.0", raw: "production", want: text("production") },
  { reason: "1.0 text: prefix", notation: "1.0", raw: "text:production", want: text("production") },
  { reason: "1.0 text: alone is blank", notation: "1.0", raw: "text:", want: { type: "blank" } },
  { reason: "1.0 empty string means inherit", notation: "1.0", raw: "", want: { type: "inherit" } },
  { reason: "1.0 `blank` is just text", notation: "1.0", raw: "blank", want: text("blank") },
  { reason: "1.0 `inherit` is just text", notation: "1.0", raw: "inherit", want: text("inherit") },
  { reason: "1.0 non-type prefix is text", notation: "1.0", raw: "http://x:80/", want: text("http://x:80/") },
  { reason: "1.0 prefixes are case-sensitive", notation: "1.0", raw: "TEXT:x", want: text("TEXT:x") },
  { reason: "1.0 ignore", notation: "1.0", raw: "ignore", want: { type: "ignore" } },
  { reason: "1.0 $ignore", notation: "1.0", raw: "$ignore", want: { type: "ignore" } },
  { reason: "1.0 ignore:$ignore", notation: "1.0", raw: "ignore:$ignore", want: { type: "ignore" } },
  {
    reason: "1.0 env",
    notation: "1.0",
    raw: "env:PRIVATE_IP",
    want: { type: "env", variable: "PRIVATE_IP" },
  },
  {
    reason: "1.0 env with component",
    notation: "1.0",
    raw: "env:db tier:PRIVATE_IP",
    want: { type: "env", component: "db tier", variable: "PRIVATE_IP" },
  },
  {
    reason: "1.0 cred",
    notation: "1.0",
    raw: "cred:DB_PASSWORD",
    want: { type: "cred", name: "DB_PASSWORD" },
  },
  { reason: "1.0 key", notation: "1.0", raw: "key:deploy", want: { type: "key", name: "deploy" } },
  {
    reason: "1.0 key with cloud id",
    notation: "1.0",
    raw: "key:deploy:2",
    want: { type: "key", name: "deploy", cloudId: "2" },
  },
  {
    reason: "1.0 array is a comma list of text",
    notation: "1.0",
    raw: "array:a,b c,text:d",
    want: { type: "array", items: [text("a"), text("b c"), text("d")] },
  },
  { reason: "1.0 empty array", notation: "1.0", raw: "array:", want: { type: "array", items: [] } },
  { reason: "2.0 text", notation: "2.0", raw: "text:a:b", want: text("a:b") },
  { reason: "2.0 text keeps newlines", notation: "2.0", raw: "text:a\nb", want: text("a\nb") },
  { reason: "2.0 blank word", notation: "2.0", raw: "blank", want: { type: "blank" } },
  { reason: "2.0 text: is blank", notation: "2.0", raw: "text:", want: { type: "blank" } },
  { reason: "2.0 inherit sentinel", notation: "2.0", raw: "inherit", want: { type: "inherit" } },
  { reason: "2.0 ignore", notation: "2.0", raw: "ignore", want: { type: "ignore" } },
  { reason: "2.0 $ignore", notation: "2.0", raw: "$ignore", want: { type: "ignore" } },
  { reason: "2.0 ignore:$ignore", notation: "2.0", raw: "ignore:$ignore", want: { type: "ignore" } },
  { reason: "2.0 env", notation: "2.0", raw: "env:HOST", want: { type: "env", variable: "HOST" } },
  {
    reason: "2.0 env with component",
    notation: "2.0",
    raw: "env:app:HOST",
    want: { type: "env", component: "app", variable: "HOST" },
  },
  { reason: "2.0 cred", notation: "2.0", raw: "cred:TOKEN", want: { type: "cred", name: "TOKEN" } },
  { reason: "2.0 key", notation: "2.0", raw: "key:k1", want: { type: "key", name: "k1" } },
  {
    reason: "2.0 key + cloud",
    notation: "2.0",
    raw: "key:k1:10",
    want: { type: "key", name: "k1", cloudId: "10" },
  },
  { reason: "2.0 empty array", notation: "2.0", raw: "array:[]", want: { type: "array", items: [] } },
  {
    reason: "2.0 array of typed strings",
    notation: "2.0",
    raw: 'array:["text:a","cred:B","env:c:D","blank","text:"]',
    want: {
      type: "array",
      items: [
        text("a"),
        { type: "cred", name: "B" },
        { type: "env", component: "c", variable: "D" },
        { type: "blank" },
        { type: "blank" },
      ],
    },
  },
  {
    reason: "2.0 nested arrays are validated recursively",
    notation: "2.0",
    raw: 'array:["array:[\\"text:x\\"]"]',
    want: { type: "array", items: [{ type: "array", items: [text("x")] }] },
  },
  {
    reason: "2.0 JSON may carry whitespace",
    notation: "2.0",
    raw: 'array: [ "text:a" ]',
    want: { type: "array", items: [text("a")] },
  },
];
