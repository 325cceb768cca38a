/**
 * The Kubernetes CEL IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library ip.go, cidr.go) as
 * CRD rules use them: `isIP`, `ip`, `isCIDR`, `cidr` and the methods of the `net.IP` and `net.CIDR`
 * values, with the apiserver's error words. The values are opaque to a rule: each is a message
 * holding its canonical text (so `==` compares them as netip does).
 */

import { type CelFunc, CelScalar, celError, celFunc, celMethod, objectType } from "@bufbuild/cel";
import { create, createFileRegistry, type DescMessage } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import {
  type Addr,
  formatAddr,
  isMapped,
  masked,
  type Prefix,
  parseAddr,
  parsePrefix,
  prefixContains,
} from "./net-address.ts";

const TEXT_FIELD = {
  name: "text",
  number: 1,
  type: 9 /* string */,
  label: 1 /* optional */,
  jsonName: "text",
};
const registry = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: "k8s/net.proto",
    package: "net",
    syntax: "proto3",
    messageType: [
      { name: "IP", field: [TEXT_FIELD] },
      { name: "CIDR", field: [TEXT_FIELD] },
    ],
  }),
  () => undefined,
);
const IP_DESC = registry.getMessage("net.IP")!;
const CIDR_DESC = registry.getMessage("net.CIDR")!;
const IP = objectType(IP_DESC);
const CIDR = objectType(CIDR_DESC);

type Value = ReturnType<typeof reflect>;
const netValue = (desc: DescMessage, text: string) => reflect(desc, create(desc, { text } as never));
const textOf = (v: Value) => v.get(v.desc.fields[0]!) as string;

/** ip.go's parseIPAddr: netip's address, but no zone and no IPv4-mapped IPv6. */
function parseIP(raw: string): Addr {
  let addr: Addr;
  try {
    addr = parseAddr(raw);
  } catch (error) {
    throw new Error(
      `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${(error as Error).message}`,
    );
  }
  if (addr.zone !== "") throw new Error(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  if (isMapped(addr)) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return addr;
}

/** cidr.go's parseCIDR: netip's prefix, but no IPv4-mapped IPv6. */
function parseCIDR(raw: string): Prefix {
  let prefix: Prefix;
  try {
    prefix = parsePrefix(raw);
  } catch (error) {
    throw new Error(`network address parse error during conversion from string: ${(error as Error).message}`);
  }
  if (isMapped(prefix.addr))
    throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return prefix;
}

const accepts = (parse: (raw: string) => unknown) => (raw: string) => {
  try {
    parse(raw);
    return true;
  } catch {
    return false;
  }
};

const ipValue = (addr: Addr) => netValue(IP_DESC, formatAddr(addr)) as never;
const cidrValue = (p: Prefix) => netValue(CIDR_DESC, `${formatAddr(p.addr)}/${p.bits}`) as never;
/** The value behind an IP or CIDR value (its text is canonical: it parses). */
const addrOf = (v: unknown) => parseAddr(textOf(v as Value));
const prefixOf = (v: unknown) => parsePrefix(textOf(v as Value));

/** A failed conversion is the rule's evaluation error, worded as the apiserver words it. */
function converting<R>(kind: "IP" | "CIDR", convert: () => R): R {
  try {
    return convert();
  } catch (error) {
    const message = (error as Error).message;
    throw celError(
      kind === "CIDR" ? `network address parse error during conversion from string: ${message}` : message,
    );
  }
}

/**
 * A string argument that does not parse: the library converts it first and finds no overload for
 * the error value it gets (`cidr(x).containsIP('zz')` is "no such overload", not a parse error).
 */
function orNoOverload<R>(fn: string, parse: () => R): R {
  try {
    return parse();
  } catch {
    throw celError(`found no matching overload for '${fn}'`);
  }
}

const is4 = (a: Addr) => a.bytes.length === 4;
/** Go's netip predicates (IsLoopback, IsMulticast, ...), on what parseIP returns (never mapped). */
const unspecified = (a: Addr) => a.bytes.every((x) => x === 0);
const loopback = (a: Addr) =>
  is4(a) ? a.bytes[0] === 127 : a.bytes.every((x, i) => x === (i === 15 ? 1 : 0));
const multicast = (a: Addr) => (is4(a) ? (a.bytes[0]! & 0xf0) === 0xe0 : a.bytes[0] === 0xff);
const linkLocalMulticast = (a: Addr) =>
  is4(a)
    ? a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0
    : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02;
const linkLocalUnicast = (a: Addr) =>
  is4(a) ? a.bytes[0] === 169 && a.bytes[1] === 254 : a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80;
const broadcast = (a: Addr) => is4(a) && a.bytes.every((x) => x === 255);
const globalUnicast = (a: Addr) =>
  !unspecified(a) && !broadcast(a) && !loopback(a) && !multicast(a) && !linkLocalUnicast(a);

/** A method of net.IP answering one of the predicates. */
const ipPredicate = (name: string, test: (a: Addr) => boolean) =>
  celMethod(name, IP, [], CelScalar.BOOL, function () {
    return test(addrOf(this));
  });

export const NET_FUNCS: CelFunc[] = [
  celFunc("isIP", [CelScalar.STRING], CelScalar.BOOL, accepts(parseIP)),
  celFunc("ip", [CelScalar.STRING], IP, (raw) => converting("IP", () => ipValue(parseIP(raw)))),
  celFunc("string", [IP], CelScalar.STRING, (v) => textOf(v as unknown as Value)),
  celMethod("family", IP, [], CelScalar.INT, function () {
    return is4(addrOf(this)) ? 4n : 6n;
  }),
  ipPredicate("isUnspecified", unspecified),
  ipPredicate("isLoopback", loopback),
  ipPredicate("isLinkLocalMulticast", linkLocalMulticast),
  ipPredicate("isLinkLocalUnicast", linkLocalUnicast),
  ipPredicate("isGlobalUnicast", globalUnicast),
  celFunc("isCIDR", [CelScalar.STRING], CelScalar.BOOL, accepts(parseCIDR)),
  celFunc("cidr", [CelScalar.STRING], CIDR, (raw) => converting("CIDR", () => cidrValue(parseCIDR(raw)))),
  celFunc("string", [CIDR], CelScalar.STRING, (v) => textOf(v as unknown as Value)),
  celMethod("ip", CIDR, [], IP, function () {
    return ipValue(prefixOf(this).addr);
  }),
  celMethod("masked", CIDR, [], CIDR, function () {
    return cidrValue(masked(prefixOf(this)));
  }),
  celMethod("prefixLength", CIDR, [], CelScalar.INT, function () {
    return BigInt(prefixOf(this).bits);
  }),
  celMethod("containsIP", CIDR, [IP], CelScalar.BOOL, function (ip) {
    return prefixContains(prefixOf(this), addrOf(ip));
  }),
  celMethod("containsIP", CIDR, [CelScalar.STRING], CelScalar.BOOL, function (raw) {
    return prefixContains(
      prefixOf(this),
      orNoOverload("containsIP", () => parseIP(raw)),
    );
  }),
  celMethod("containsCIDR", CIDR, [CIDR], CelScalar.BOOL, function (other) {
    const inner = prefixOf(other);
    const outer = prefixOf(this);
    return inner.bits >= outer.bits && prefixContains(outer, inner.addr);
  }),
  celMethod("containsCIDR", CIDR, [CelScalar.STRING], CelScalar.BOOL, function (raw) {
    const outer = prefixOf(this);
    const inner = orNoOverload("containsCIDR", () => parseCIDR(raw));
    return inner.bits >= outer.bits && prefixContains(outer, inner.addr);
  }),
];
