/**
 * IP addresses and prefixes read as Go's net/netip reads them, with its error words: what the
 * Kubernetes CEL IP and CIDR libraries (net.IP, net.CIDR) are built on. Strict as netip is: no
 * leading zeros in an IPv4 octet or a prefix length, no zone in a prefix.
 */

/** An address: 4 bytes (IPv4) or 16 (IPv6), and the IPv6 zone it was written with, if any. */
export interface Addr {
  bytes: Uint8Array;
  zone: string;
}

export interface Prefix {
  addr: Addr;
  bits: number;
}

/** Go's strconv.Quote for the printable ASCII these messages quote. */
const quote = (s: string) => JSON.stringify(s);

class ParseAddrError extends Error {
  constructor(input: string, message: string, at?: string) {
    super(`ParseAddr(${quote(input)}): ${message}${at ? ` (at ${quote(at)})` : ""}`);
  }
}

/** netip.ParseAddr: an IPv4 or IPv6 address, or an Error with netip's words. */
export function parseAddr(s: string): Addr {
  for (const c of s) {
    if (c === ".") return { bytes: parseIPv4(s, s), zone: "" };
    if (c === ":") return parseIPv6(s);
    if (c === "%") throw new ParseAddrError(s, "missing IPv6 address");
  }
  throw new ParseAddrError(s, "unable to parse IP");
}

/** netip.ParsePrefix: `address/bits`, the address as written (host bits kept). */
export function parsePrefix(s: string): Prefix {
  const fail = (message: string) => new Error(`netip.ParsePrefix(${quote(s)}): ${message}`);
  const slash = s.lastIndexOf("/");
  if (slash < 0) throw fail("no '/'");
  let addr: Addr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (error) {
    throw fail((error as Error).message);
  }
  if (addr.zone !== "") throw fail("IPv6 zones cannot be present in a prefix");
  const text = s.slice(slash + 1);
  // strconv.Atoi would take a sign or leading zeros; netip does not.
  if (!/^(0|[1-9]\d{0,9})$/.test(text)) throw fail(`bad bits after slash: ${quote(text)}`);
  const bits = Number(text);
  if (bits > addr.bytes.length * 8) throw fail("prefix length out of range");
  return { addr, bits };
}

function parseIPv4(s: string, input: string): Uint8Array {
  const out = new Uint8Array(4);
  let value = 0;
  let digits = 0;
  let field = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= "0" && c <= "9") {
      if (digits === 1 && value === 0)
        throw new ParseAddrError(input, "IPv4 field has octet with leading zero");
      value = value * 10 + Number(c);
      digits++;
      if (value > 255) throw new ParseAddrError(input, "IPv4 field has value >255");
    } else if (c === ".") {
      if (i === 0 || i === s.length - 1 || s[i - 1] === ".")
        throw new ParseAddrError(input, "IPv4 field must have at least one digit", s.slice(i));
      if (field === 3) throw new ParseAddrError(input, "IPv4 address too long");
      out[field++] = value;
      value = 0;
      digits = 0;
    } else {
      throw new ParseAddrError(input, "unexpected character", s.slice(i));
    }
  }
  if (field < 3) throw new ParseAddrError(input, "IPv4 address too short");
  out[3] = value;
  return out;
}

/** Go's parseIPv6, step for step (its errors name where it stopped). */
function parseIPv6(input: string): Addr {
  const percent = input.indexOf("%");
  const zone = percent < 0 ? "" : input.slice(percent + 1);
  if (percent >= 0 && zone === "") throw new ParseAddrError(input, "zone must be a non-empty string");
  let s = percent < 0 ? input : input.slice(0, percent);
  const bytes = new Uint8Array(16);
  let ellipsis = -1;
  if (s.startsWith("::")) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === "") return { bytes, zone };
  }
  let i = 0;
  while (i < 16) {
    const group = /^[0-9a-fA-F]*/.exec(s)![0];
    if (group.length > 4) throw new ParseAddrError(input, "each group must have 4 or less digits", s);
    if (group.length === 0)
      throw new ParseAddrError(input, "each colon-separated field must have at least one digit", s);
    if (s[group.length] === ".") {
      if (ellipsis < 0 && i !== 12)
        throw new ParseAddrError(
          input,
          "embedded IPv4 address must replace the final 2 fields of the address",
          s,
        );
      if (i + 4 > 16)
        throw new ParseAddrError(
          input,
          "too many hex fields to fit an embedded IPv4 at the end of the address",
          s,
        );
      bytes.set(parseIPv4(s, input), i);
      s = "";
      i += 4;
      break;
    }
    const value = Number.parseInt(group, 16);
    bytes[i] = value >> 8;
    bytes[i + 1] = value & 0xff;
    i += 2;
    s = s.slice(group.length);
    if (s === "") break;
    if (s[0] !== ":") throw new ParseAddrError(input, "unexpected character, want colon", s);
    if (s.length === 1) throw new ParseAddrError(input, "colon must be followed by more characters", s);
    s = s.slice(1);
    if (s[0] === ":") {
      if (ellipsis >= 0) throw new ParseAddrError(input, "multiple :: in address", s);
      ellipsis = i;
      s = s.slice(1);
      if (s === "") break;
    }
  }
  if (s !== "") throw new ParseAddrError(input, "trailing garbage after address", s);
  if (i < 16) {
    if (ellipsis < 0) throw new ParseAddrError(input, "address string too short");
    const shift = 16 - i;
    bytes.copyWithin(ellipsis + shift, ellipsis, i);
    bytes.fill(0, ellipsis, ellipsis + shift);
  } else if (ellipsis >= 0) {
    throw new ParseAddrError(input, "the :: must expand to at least one field of zeros");
  }
  return { bytes, zone };
}

/** An IPv4 address written inside IPv6 as ::ffff:a.b.c.d (Go's Is4In6). */
export function isMapped(addr: Addr): boolean {
  const b = addr.bytes;
  return b.length === 16 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** Go's Addr.String(): dotted IPv4; IPv6 per RFC 5952 (the first longest run of zero groups as ::). */
export function formatAddr(addr: Addr): string {
  const b = addr.bytes;
  if (b.length === 4) return b.join(".");
  if (isMapped(addr)) return `::ffff:${[...b.subarray(12)].join(".")}`;
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let start = -1;
  let end = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > end - start) [start, end] = [i, j];
  }
  let text = "";
  for (let i = 0; i < 8; i++) {
    if (i === start) {
      text += "::";
      i = end - 1;
      continue;
    }
    if (i > 0 && i !== end) text += ":";
    text += groups[i]!.toString(16);
  }
  return `${text}${addr.zone ? `%${addr.zone}` : ""}`;
}

/** The prefix with its host bits cleared (Go's Prefix.Masked). */
export function masked(prefix: Prefix): Prefix {
  const bytes = prefix.addr.bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, prefix.bits - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return { addr: { bytes, zone: "" }, bits: prefix.bits };
}

/** Whether `addr` lies in `prefix` (same family). */
export function prefixContains(prefix: Prefix, addr: Addr): boolean {
  if (addr.bytes.length !== prefix.addr.bytes.length) return false;
  const a = masked(prefix);
  const b = masked({ addr, bits: prefix.bits });
  return a.addr.bytes.every((x, i) => x === b.addr.bytes[i]);
}
