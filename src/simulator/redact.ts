/** Field names whose values are credentials (users' passwords and refresh tokens, and any to come). */
const SECRET_FIELD = /password|token|secret|cookie|session|credential|private_?key/i;
export const REDACTED = "[redacted]";

/**
 * The value with every non-empty string under a credential-like field name replaced by
 * `[redacted]` (null stays null, so "no refresh token" still shows). Mutates and answers its
 * argument: call it on a copy.
 */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) redactSecrets(item);
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const [key, member] of Object.entries(record)) {
      if (SECRET_FIELD.test(key) && typeof member === "string" && member !== "") record[key] = REDACTED;
      else redactSecrets(member);
    }
  }
  return value;
}
