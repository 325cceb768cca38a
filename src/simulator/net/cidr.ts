/**
 * IPv4 address and CIDR helpers for the network resources.
 *
 * The spec's formats are textual ("IPv4 dotted quad, slash, 1 to 2 digit prefix"), so the
 * parsers check the exact shape first and only then the numeric ranges: `10.0.0.0/008` and
 * `10.0.0/8` are malformed even though a lenient parser would read them.
 */

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const CIDR = /^(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\/(\d{1,2})$/;

export interface Cidr {
  /** Network address with the host bits cleared, as an unsigned 32-bit number. */
  readonly base: number;
  readonly prefix: number;
}

/** Parses a dotted quad (`10.1.2.3`) into an unsigned 32-bit number, or undefined when malformed. */
export function parseIpv4(text: string): number | undefined {
  const match = DOTTED_QUAD.exec(text);
  if (!match) return undefined;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const octet = Number(match[i]);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

export function isDottedQuad(text: string): boolean {
  return parseIpv4(text) !== undefined;
}

function mask(prefix: number): number {
  // 2 ** 32 arithmetic keeps the value unsigned; bit operators would go negative at /1.
  return prefix === 0 ? 0 : 2 ** 32 - 2 ** (32 - prefix);
}

/** Parses `a.b.c.d/nn` (prefix 0..32 written with 1 or 2 digits), or undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const match = CIDR.exec(text);
  if (!match) return undefined;
  const address = parseIpv4(match[1]!);
  const prefix = Number(match[2]);
  if (address === undefined || prefix > 32) return undefined;
  const m = mask(prefix);
  // Clearing the host bits with arithmetic: address - (address mod block size).
  const size = 2 ** (32 - prefix);
  return { base: m === 0 ? 0 : address - (address % size), prefix };
}

export function isCidr(text: string): boolean {
  return parseCidr(text) !== undefined;
}

function lastAddress(cidr: Cidr): number {
  return cidr.base + 2 ** (32 - cidr.prefix) - 1;
}

/** True when every address of `inner` lies inside `outer`. */
export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  return inner.prefix >= outer.prefix && inner.base >= outer.base && lastAddress(inner) <= lastAddress(outer);
}

/** True when the two blocks share at least one address. */
export function cidrOverlaps(a: Cidr, b: Cidr): boolean {
  return a.base <= lastAddress(b) && b.base <= lastAddress(a);
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}
