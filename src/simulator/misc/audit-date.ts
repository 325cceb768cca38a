/**
 * The audit date format of spec 4.14: `YYYY/MM/DD HH:MM:SS [+/-]ZZZZ`, e.g.
 * `2026/11/22 04:00:00 +0000` or `2026/11/21 20:00:00 -0800`. Parsed strictly: the
 * calendar date must exist, hours 00-23, minutes and seconds 00-59, offset hours 00-14.
 */

const AUDIT_DATE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

export const AUDIT_DATE_FORMAT = "YYYY/MM/DD HH:MM:SS [+/-]ZZZZ";

/** Milliseconds since the epoch, or undefined when `text` is not a valid audit date. */
export function parseAuditDate(text: string): number | undefined {
  const match = AUDIT_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = match
    .slice(1)
    .map((part) => Number(part));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (offsetHours > 14 || offsetMinutes > 59) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2026/02/30 over to March: a date that does not exist is refused.
  if (new Date(local).getUTCDate() !== day) return undefined;
  const sign = match[7] === "-" ? -1 : 1;
  return local - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** Formats epoch milliseconds as `YYYY/MM/DD HH:MM:SS +0000` (UTC). */
export function formatAuditDate(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getUTCFullYear()}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}
