import { describe, expect, it } from "vitest";
import { admit, type JSONSchemaProps } from "./index.ts";
import { schemaWithSpec } from "./index-cases.testing.ts";

/**
 * The Kubernetes CEL IP and CIDR libraries (cel-net.ts), held to kube-apiserver 1.32.6: each case
 * is a rule on a string field, a value, and what that server answered (measured on a real one,
 * ../shared/envtest): true (admitted), false (refused with the rule's message), or the error its
 * evaluation gave ("no such overload" for a string argument that does not parse).
 */
const MEASURED: [value: string, rule: string, answer: boolean | string][] = [
  ["10.0.0.5/24", "string(cidr(self).masked()) == '10.0.0.0/24'", true],
  ["10.0.0.5/24", "cidr(self).prefixLength() == 24", true],
  ["10.0.0.5/24", "cidr(self).containsIP('10.0.0.9')", true],
  ["10.0.0.5/24", "cidr(self).containsIP(ip('10.0.0.9'))", true],
  ["10.0.0.5/24", "cidr(self).containsCIDR('10.0.0.0/25')", true],
  ["10.0.0.5/24", "cidr(self).containsCIDR(cidr('10.0.0.0/23'))", false],
  ["10.0.0.5/24", "string(cidr(self).ip()) == '10.0.0.5'", true],
  ["10.0.0.5/24", "cidr(self).ip().isGlobalUnicast()", true],
  ["10.0.0.5/24", "cidr(self).ip().isLoopback()", false],
  ["10.0.0.5/24", "cidr(self).ip().isLinkLocalUnicast()", false],
  ["10.0.0.5/24", "cidr(self).ip().isUnspecified()", false],
  ["10.0.0.5/24", "cidr(self).ip().family() == 6", false],
  ["10.0.0.5/24", "string(cidr(self)) == self", true],
  ["10.0.0.5/24", "cidr(self) == cidr('10.0.0.5/24')", true],
  ["10.0.0.5/24", "isIP(self)", false],
  ["10.0.0.5/24", "cidr(self).containsIP('zz')", "no such overload"],
  ["127.0.0.1/8", "string(cidr(self).masked()) == '10.0.0.0/24'", false],
  ["127.0.0.1/8", "cidr(self).prefixLength() == 24", false],
  ["127.0.0.1/8", "cidr(self).containsIP('10.0.0.9')", false],
  ["127.0.0.1/8", "cidr(self).containsIP(ip('10.0.0.9'))", false],
  ["127.0.0.1/8", "cidr(self).containsCIDR('10.0.0.0/25')", false],
  ["127.0.0.1/8", "cidr(self).containsCIDR(cidr('10.0.0.0/23'))", false],
  ["127.0.0.1/8", "string(cidr(self).ip()) == '10.0.0.5'", false],
  ["127.0.0.1/8", "cidr(self).ip().isGlobalUnicast()", false],
  ["127.0.0.1/8", "cidr(self).ip().isLoopback()", true],
  ["127.0.0.1/8", "cidr(self).ip().isLinkLocalUnicast()", false],
  ["127.0.0.1/8", "cidr(self).ip().isUnspecified()", false],
  ["127.0.0.1/8", "cidr(self).ip().family() == 6", false],
  ["127.0.0.1/8", "string(cidr(self)) == self", true],
  ["127.0.0.1/8", "cidr(self) == cidr('10.0.0.5/24')", false],
  ["127.0.0.1/8", "isIP(self)", false],
  ["127.0.0.1/8", "cidr(self).containsIP('zz')", "no such overload"],
  ["2001:db8::1/64", "string(cidr(self).masked()) == '10.0.0.0/24'", false],
  ["2001:db8::1/64", "cidr(self).prefixLength() == 24", false],
  ["2001:db8::1/64", "cidr(self).containsIP('10.0.0.9')", false],
  ["2001:db8::1/64", "cidr(self).containsIP(ip('10.0.0.9'))", false],
  ["2001:db8::1/64", "cidr(self).containsCIDR('10.0.0.0/25')", false],
  ["2001:db8::1/64", "cidr(self).containsCIDR(cidr('10.0.0.0/23'))", false],
  ["2001:db8::1/64", "string(cidr(self).ip()) == '10.0.0.5'", false],
  ["2001:db8::1/64", "cidr(self).ip().isGlobalUnicast()", true],
  ["2001:db8::1/64", "cidr(self).ip().isLoopback()", false],
  ["2001:db8::1/64", "cidr(self).ip().isLinkLocalUnicast()", false],
  ["2001:db8::1/64", "cidr(self).ip().isUnspecified()", false],
  ["2001:db8::1/64", "cidr(self).ip().family() == 6", true],
  ["2001:db8::1/64", "string(cidr(self)) == self", true],
  ["2001:db8::1/64", "cidr(self) == cidr('10.0.0.5/24')", false],
  ["2001:db8::1/64", "isIP(self)", false],
  ["2001:db8::1/64", "cidr(self).containsIP('zz')", "no such overload"],
  ["1:0:0:1:0:0:0:1/64", "string(cidr(self).masked()) == '10.0.0.0/24'", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).prefixLength() == 24", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).containsIP('10.0.0.9')", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).containsIP(ip('10.0.0.9'))", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).containsCIDR('10.0.0.0/25')", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).containsCIDR(cidr('10.0.0.0/23'))", false],
  ["1:0:0:1:0:0:0:1/64", "string(cidr(self).ip()) == '10.0.0.5'", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).ip().isGlobalUnicast()", true],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).ip().isLoopback()", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).ip().isLinkLocalUnicast()", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).ip().isUnspecified()", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).ip().family() == 6", true],
  ["1:0:0:1:0:0:0:1/64", "string(cidr(self)) == self", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self) == cidr('10.0.0.5/24')", false],
  ["1:0:0:1:0:0:0:1/64", "isIP(self)", false],
  ["1:0:0:1:0:0:0:1/64", "cidr(self).containsIP('zz')", "no such overload"],
  ["2001:db8::1.2.3.4/96", "string(cidr(self).masked()) == '10.0.0.0/24'", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).prefixLength() == 24", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).containsIP('10.0.0.9')", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).containsIP(ip('10.0.0.9'))", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).containsCIDR('10.0.0.0/25')", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).containsCIDR(cidr('10.0.0.0/23'))", false],
  ["2001:db8::1.2.3.4/96", "string(cidr(self).ip()) == '10.0.0.5'", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).ip().isGlobalUnicast()", true],
  ["2001:db8::1.2.3.4/96", "cidr(self).ip().isLoopback()", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).ip().isLinkLocalUnicast()", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).ip().isUnspecified()", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).ip().family() == 6", true],
  ["2001:db8::1.2.3.4/96", "string(cidr(self)) == self", false],
  ["2001:db8::1.2.3.4/96", "cidr(self) == cidr('10.0.0.5/24')", false],
  ["2001:db8::1.2.3.4/96", "isIP(self)", false],
  ["2001:db8::1.2.3.4/96", "cidr(self).containsIP('zz')", "no such overload"],
  [
    "::ffff:1.2.3.4/128",
    "cidr(self).prefixLength() == 24",
    'network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/128" is not allowed',
  ],
  [
    "fe80::1%eth0/64",
    "cidr(self).prefixLength() == 24",
    'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix',
  ],
  ["240.0.0.1/8", "cidr(self).ip().isGlobalUnicast()", true],
  ["255.255.255.255/32", "cidr(self).ip().isGlobalUnicast()", false],
  ["169.254.1.1/16", "cidr(self).ip().isLinkLocalUnicast()", true],
  ["0.0.0.0/0", "cidr(self).ip().isUnspecified()", true],
  ["1.2.3.4", "ip(self).family() == 4", true],
  ["1.2.3.4", "isIP(self)", true],
  ["1.2.3.4", "string(ip(self)) == self", true],
  ["1.2.3.4", "ip(self).isLinkLocalMulticast()", false],
  ["1.2.3.4", "ip(self).isGlobalUnicast()", true],
  ["1.2.3.4", "ip(self) == ip('::1')", false],
  ["::1", "ip(self).family() == 4", false],
  ["::1", "isIP(self)", true],
  ["::1", "string(ip(self)) == self", true],
  ["::1", "ip(self).isLinkLocalMulticast()", false],
  ["::1", "ip(self).isGlobalUnicast()", false],
  ["::1", "ip(self) == ip('::1')", true],
  ["0:0:0:0:0:0:0:1", "ip(self).family() == 4", false],
  ["0:0:0:0:0:0:0:1", "isIP(self)", true],
  ["0:0:0:0:0:0:0:1", "string(ip(self)) == self", false],
  ["0:0:0:0:0:0:0:1", "ip(self).isLinkLocalMulticast()", false],
  ["0:0:0:0:0:0:0:1", "ip(self).isGlobalUnicast()", false],
  ["0:0:0:0:0:0:0:1", "ip(self) == ip('::1')", true],
  ["ff02::1", "ip(self).family() == 4", false],
  ["ff02::1", "isIP(self)", true],
  ["ff02::1", "string(ip(self)) == self", true],
  ["ff02::1", "ip(self).isLinkLocalMulticast()", true],
  ["ff02::1", "ip(self).isGlobalUnicast()", false],
  ["ff02::1", "ip(self) == ip('::1')", false],
  ["224.0.0.5", "ip(self).family() == 4", true],
  ["224.0.0.5", "isIP(self)", true],
  ["224.0.0.5", "string(ip(self)) == self", true],
  ["224.0.0.5", "ip(self).isLinkLocalMulticast()", true],
  ["224.0.0.5", "ip(self).isGlobalUnicast()", false],
  ["224.0.0.5", "ip(self) == ip('::1')", false],
  ["::ffff:1.2.3.4", "ip(self).family() == 4", 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
  ["::ffff:1.2.3.4", "isIP(self)", false],
  ["fe80::1%eth0", "ip(self).family() == 4", 'IP address "fe80::1%eth0" with zone value is not allowed'],
  ["fe80::1%eth0", "isIP(self)", false],
  [
    "01.2.3.4",
    "ip(self).family() == 4",
    'IP Address "01.2.3.4" parse error during conversion from string: ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero',
  ],
  ["01.2.3.4", "isIP(self)", false],
  [
    "1.2.3",
    "ip(self).family() == 4",
    'IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): IPv4 address too short',
  ],
  ["1.2.3", "isIP(self)", false],
  [
    "1::2::3",
    "ip(self).family() == 4",
    'IP Address "1::2::3" parse error during conversion from string: ParseAddr("1::2::3"): multiple :: in address (at ":3")',
  ],
  ["1::2::3", "isIP(self)", false],
  [
    "12345::",
    "ip(self).family() == 4",
    'IP Address "12345::" parse error during conversion from string: ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")',
  ],
  ["12345::", "isIP(self)", false],
  [
    "1:2:3:4:5:1.2.3.4",
    "ip(self).family() == 4",
    'IP Address "1:2:3:4:5:1.2.3.4" parse error during conversion from string: ParseAddr("1:2:3:4:5:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")',
  ],
  ["1:2:3:4:5:1.2.3.4", "isIP(self)", false],
  [
    "1.2.3.4/8",
    "ip(self).family() == 4",
    'IP Address "1.2.3.4/8" parse error during conversion from string: ParseAddr("1.2.3.4/8"): unexpected character (at "/8")',
  ],
  ["1.2.3.4/8", "isIP(self)", false],
];

/** One rule on spec.x, as a CRD writes it (maxLength bounds its cost). */
function schemaOf(rule: string): JSONSchemaProps {
  const x = { type: "string", maxLength: 45, "x-kubernetes-validations": [{ rule, message: "refused" }] };
  return schemaWithSpec({ type: "object", properties: { x } } as JSONSchemaProps);
}

function causeOf(value: string, rule: string): string | undefined {
  const object = { apiVersion: "t.io/v1", kind: "T", metadata: { name: "t" }, spec: { x: value } };
  return admit({ schema: schemaOf(rule), object }).causes[0]?.message;
}

describe("CEL IP and CIDR libraries, as kube-apiserver 1.32 answers", () => {
  it.each(MEASURED)("%s: %s -> %s", (value, rule, answer) => {
    const said = (detail: string) => `Invalid value: "string": ${detail}`;
    const expected =
      answer === true
        ? undefined
        : answer === false
          ? said("refused")
          : answer === "no such overload"
            ? said(
                "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: refused",
              )
            : said(`${answer} evaluating rule: refused`);
    expect(causeOf(value, rule)).toBe(expected);
  });
});
