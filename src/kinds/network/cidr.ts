import { BlockList, isIPv4 } from "node:net";
import type { CelRule } from "../../runtime/sdk/index.ts";

/**
 * The CRD rules of the IPv4 fields, in kube-apiserver's CEL (its IP and CIDR libraries): a value
 * they refuse is answered with the message, where a pattern's error would show a regex. They take
 * what Go's net/netip takes (no leading zeros), and what the spec asks: dotted quad, slash, 0-32.
 */
export const IPV4_CIDR_RULE: CelRule = {
  rule: "isCIDR(self) && cidr(self).ip().family() == 4",
  message: "must be an IPv4 CIDR block such as 10.0.0.0/16",
};
export const IPV4_RULE: CelRule = {
  rule: "isIP(self) && ip(self).family() == 4",
  message: "must be an IPv4 address such as 10.0.0.1",
};

export interface Cidr {
  address: string;
  prefix: number;
}

/** An IPv4 CIDR block as the CRD rule takes it (host bits as written), or undefined. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = "", prefixText = "", ...rest] = text.split("/");
  if (rest.length > 0 || !isIPv4(address) || !/^(0|[1-9]\d?)$/.test(prefixText)) return undefined;
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
