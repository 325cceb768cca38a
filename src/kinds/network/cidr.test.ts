import { describe, expect, it } from "vitest";
import { cidrContains, parseCidr } from "./cidr.ts";

describe("cidrContains", () => {
  const cases: { reason: string; outer: string; inner: string; want: boolean }[] = [
    { reason: "a /24 inside its /16", outer: "10.10.0.0/16", inner: "10.10.1.0/24", want: true },
    { reason: "the same block", outer: "10.10.0.0/16", inner: "10.10.0.0/16", want: true },
    { reason: "last /24 of the /16", outer: "10.10.0.0/16", inner: "10.10.255.0/24", want: true },
    { reason: "outside the /16", outer: "10.10.0.0/16", inner: "10.11.0.0/24", want: false },
    { reason: "larger than the network", outer: "10.10.0.0/16", inner: "10.10.0.0/15", want: false },
    { reason: "a single host", outer: "192.168.0.0/24", inner: "192.168.0.7/32", want: true },
    { reason: "everything inside 0.0.0.0/0", outer: "0.0.0.0/0", inner: "172.16.3.0/24", want: true },
    { reason: "outer host bits are masked", outer: "10.10.3.4/16", inner: "10.10.200.0/24", want: true },
    { reason: "malformed inner", outer: "10.10.0.0/16", inner: "10.10.1.0", want: false },
    { reason: "prefix over 32", outer: "10.10.0.0/16", inner: "10.10.1.0/33", want: false },
  ];
  for (const c of cases) {
    it(c.reason, () => expect(cidrContains(c.outer, c.inner)).toBe(c.want));
  }
});

describe("CIDR format", () => {
  it("accepts what the spec allows and rejects the rest, as the CRD's rule does (Go's netip)", () => {
    for (const ok of ["0.0.0.0/0", "10.10.0.0/16", "255.255.255.255/32", "1.2.3.4/8", "10.10.3.5/24"])
      expect(parseCidr(ok), ok).toBeDefined();
    for (const bad of [
      "10.10.0.0",
      "10.10.0/16",
      "256.1.1.1/8",
      "1.2.3.4/33",
      "1.2.3.4/008",
      "1.2.3.4/08",
      "010.1.2.3/8",
      "a.b.c.d/1",
      "::1/128",
    ])
      expect(parseCidr(bad), bad).toBeUndefined();
  });
});
