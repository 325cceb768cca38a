/**
 * How a value becomes a Table cell, as tableconvertor.cellForJSONValue and the apimachinery
 * helpers render it, so kubectl prints the same text against the devcluster as against kube-apiserver.
 */

import { isObj } from "./meta.ts";

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

export function ageOf(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== "string") return "<unknown>";
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return "<invalid>";
  return humanDuration(now.getTime() - t);
}

/** How the jsonpath printer prints a value with fmt.Fprint. */
function goPrint(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (Array.isArray(v)) return `[${v.map(goPrint).join(" ")}]`;
  if (isObj(v)) {
    const entries = Object.keys(v)
      .sort()
      .map((k) => `${k}:${goPrint(v[k])}`);
    return `map[${entries.join(" ")}]`;
  }
  return String(v);
}
/** tableconvertor.cellForJSONValue (plus the string branch's jsonpath printing). */
export function cellFor(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "string":
      return goPrint(value);
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date":
      return typeof value === "string" ? ageOf(value, now) : null;
    default:
      return null;
  }
}
