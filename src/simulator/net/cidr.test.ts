import { describe, expect, it } from "vitest";
import {
  cidrContains,
  cidrOverlaps,
  formatIpv4,
  isCidr,
  isDottedQuad,
  parseCidr,
  parseIpv4,
} from "./cidr.ts";

describe("parseIpv4", () => {
  it.each([
    ["0.0.0.0", 0],
    ["10.0.0.1", 167772161],
    ["255.255.255.255", 4294967295],
  ])("reads %s", (text, value) => {
    expect(parseIpv4(text)).toBe(value);
  });

  it.each([
    "",
    "10.0.0",
    "10.0.0.0.0",
    "256.0.0.1",
    "10.0.0.1 ",
    "a.b.c.d",
    "1000.0.0.1",
    "10.0.0.-1",
    "10..0.1",
  ])("rejects %j", (text) => {
    expect(parseIpv4(text)).toBeUndefined();
    expect(isDottedQuad(text)).toBe(false);
  });
});

describe("parseCidr", () => {
  it("clears host bits", () => {
    expect(parseCidr("10.1.2.3/16")).toEqual({ base: parseIpv4("10.1.0.0"), prefix: 16 });
    expect(parseCidr("0.0.0.0/0")).toEqual({ base: 0, prefix: 0 });
    expect(parseCidr("200.1.2.3/1")).toEqual({ base: parseIpv4("128.0.0.0"), prefix: 1 });
    expect(parseCidr("10.1.2.3/32")).toEqual({ base: parseIpv4("10.1.2.3"), prefix: 32 });
  });

  it.each([
    "10.0.0.0",
    "10.0.0.0/",
    "10.0.0.0/33",
    "10.0.0.0/008",
    "10.0.0/8",
    "300.0.0.0/8",
    "10.0.0.0/8/8",
    " 10.0.0.0/8",
    "10.0.0.0/-1",
    "",
  ])("rejects %j", (text) => {
    expect(isCidr(text)).toBe(false);
  });
});

describe("containment and overlap", () => {
  const c = (text: string) => parseCidr(text)!;
  it("contains inner blocks only", () => {
    expect(cidrContains(c("10.0.0.0/16"), c("10.0.1.0/24"))).toBe(true);
    expect(cidrContains(c("10.0.0.0/16"), c("10.0.0.0/16"))).toBe(true);
    expect(cidrContains(c("10.0.0.0/16"), c("10.0.0.0/15"))).toBe(false);
    expect(cidrContains(c("10.0.0.0/16"), c("10.1.0.0/24"))).toBe(false);
    expect(cidrContains(c("0.0.0.0/0"), c("255.255.255.255/32"))).toBe(true);
  });
  it("detects overlap both ways", () => {
    expect(cidrOverlaps(c("10.0.0.0/24"), c("10.0.0.128/25"))).toBe(true);
    expect(cidrOverlaps(c("10.0.0.128/25"), c("10.0.0.0/24"))).toBe(true);
    expect(cidrOverlaps(c("10.0.0.0/25"), c("10.0.0.128/25"))).toBe(false);
  });
  it("formats addresses back", () => {
    expect(formatIpv4(parseIpv4("203.0.113.7")!)).toBe("203.0.113.7");
    expect(formatIpv4(4294967295)).toBe("255.255.255.255");
  });
});
