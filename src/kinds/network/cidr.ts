import { BlockList, isIPv4 } from "node:net";

/** IPv4 CIDR as the spec writes it: dotted quad, slash, a 1 to 2 digit prefix (0-32). */
export const IPV4_CIDR =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\/(3[0-2]|[12]?\d)$/;
export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export interface Cidr {
  address: string;
  prefix: number;
}

export function parseCidr(text: string): Cidr | undefined {
  const [address = "", prefixText = "", ...rest] = text.split("/");
  if (rest.length > 0 || !isIPv4(address) || !/^\d{1,2}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= 32 ? { address, prefix } : undefined;
}

/**
 * True when every address of `inner` lies inside `outer`: inner's prefix is at least as long
 * and its address falls in outer's block (node's BlockList does the masking).
 */
export function cidrContains(outer: string, inner: string): boolean {
  const o = parseCidr(outer);
  const i = parseCidr(inner);
  if (!o || !i || i.prefix < o.prefix) return false;
  const block = new BlockList();
  block.addSubnet(o.address, o.prefix, "ipv4");
  return block.check(i.address, "ipv4");
}
