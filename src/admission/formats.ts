/**
 * String formats the apiextensions-apiserver validates (supportedVersionedFormats, compatibility
 * version 1.34 incl. k8s-short-name / k8s-long-name). Every other format (int32, int64, float,
 * double, ...) is stripped by the real server and therefore not validated here either.
 * Checks mirror the Go parsers the strfmt registry uses, as closely as a regex can.
 */
import { isIP } from "node:net";

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const EMAIL = /^(?:[^<>@\s]+\s*<)?[^\s@<>]+@[^\s@<>]+>?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;
// µ and μ written as escapes: the bundle stays ASCII (test/deploy/bundle.test.ts).
const DURATION = /^(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+$|^0$/;
const SCALA_DURATION =
  /^\d+\s*(ns|nano|nanos|nanosecond|nanoseconds|us|micro|micros|microsecond|microseconds|ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hour|hours|d|day|days|w|wk|week|weeks)$/;
const MAC =
  /^(?:[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}|[0-9a-f]{2}(?:[:-][0-9a-f]{2}){7}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){2})$/i;
const BSON_OBJECT_ID = /^[0-9a-f]{24}$/i;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_COLOR =
  /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const ISBN10 = /^(?:\d[- ]?){9}[\dX]$/;
const ISBN13 = /^(?:\d[- ]?){12}\d$/;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validDate(y: string, m: string, d: string): boolean {
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const dim = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  return day <= dim;
}

/** Go's net.ParseIP rejects IPv4 octets with leading zeros, as does node:net. */
function ipv4(s: string): boolean {
  return isIP(s) === 4 || (isIP(s) === 6 && s.includes("."));
}

function cidr(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const family = isIP(ip);
  if (family === 0) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** net/url.ParseRequestURI: an absolute URI or an absolute path, no fragment-only input. */
function uri(s: string): boolean {
  if (s === "" || /\s/.test(s)) return false;
  if (s.startsWith("/")) return true;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
}

function isbn(s: string): boolean {
  return ISBN10.test(s) || ISBN13.test(s);
}

const CHECKS: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => BSON_OBJECT_ID.test(s),
  uri,
  email: (s) => EMAIL.test(s),
  hostname: (s) => s.length <= 255 && HOSTNAME.test(s),
  ipv4,
  ipv6: (s) => isIP(s) === 6,
  cidr,
  mac: (s) => MAC.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn,
  isbn10: (s) => ISBN10.test(s),
  isbn13: (s) => ISBN13.test(s),
  creditcard: (s) => CREDIT_CARD.test(s.replace(/\D/g, "")),
  ssn: (s) => SSN.test(s),
  hexcolor: (s) => HEX_COLOR.test(s),
  rgbcolor: (s) => RGB_COLOR.test(s),
  byte: (s) => BASE64.test(s),
  password: () => true,
  date: (s) => {
    const m = DATE.exec(s);
    return m !== null && validDate(m[1]!, m[2]!, m[3]!);
  },
  duration: (s) => DURATION.test(s) || SCALA_DURATION.test(s),
  datetime: (s) => {
    const m = DATE_TIME.exec(s);
    return (
      m !== null &&
      validDate(m[1]!, m[2]!, m[3]!) &&
      Number(m[4]) < 24 &&
      Number(m[5]) < 60 &&
      Number(m[6] ?? 0) < 60
    );
  },
  k8sshortname: (s) => s.length <= 63 && DNS1123_LABEL.test(s),
  k8slongname: (s) => s.length <= 253 && DNS1123_SUBDOMAIN.test(s),
};

/** The normalized name the server uses for a format, or undefined when the format is not validated. */
export function supportedFormat(format: string | undefined): string | undefined {
  if (!format) return undefined;
  const normalized = format.replaceAll("-", "");
  return normalized in CHECKS ? normalized : undefined;
}

/** true when `value` satisfies `format`; formats the server does not validate always pass. */
export function checkFormat(format: string | undefined, value: string): boolean {
  const name = supportedFormat(format);
  return name === undefined ? true : CHECKS[name]!(value);
}
