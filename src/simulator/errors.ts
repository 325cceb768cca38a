/**
 * Errors the simulator answers with. The body is plain text `<ErrorType>: <message>`
 * (the style the real service uses, e.g. `ResourceNotFound: Couldn't find Cloud with ID=0`).
 * A few real bodies carry no type prefix (`Session cookie is expired or invalid`,
 * `A user must have the observer role.`) or are JSON (duplicate deployment name):
 * those use `rawBody`.
 */
export class SimError extends Error {
  readonly status: number;
  readonly type: string | null;
  readonly contentType: string;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    type: string | null,
    message: string,
    options: { contentType?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "SimError";
    this.status = status;
    this.type = type;
    this.contentType = options.contentType ?? "text/plain; charset=utf-8";
    this.headers = options.headers ?? {};
  }

  get body(): string {
    return this.type === null ? this.message : `${this.type}: ${this.message}`;
  }
}

/** 400: a parameter is missing, malformed or not allowed, or a filter is unknown. */
export function parameterError(message: string): SimError {
  return new SimError(400, "ParameterError", message);
}

/** 422: the id names no object (the real service answers 422 here, not 404). */
export function resourceNotFound(resource: string, id: string): SimError {
  return new SimError(422, "ResourceNotFound", `Couldn't find ${resource} with ID=${id}`);
}

/** 422: the parameters are fine but the object's state forbids the operation. */
export function actionNotAllowed(message: string): SimError {
  return new SimError(422, "ActionNotAllowed", message);
}

/** 403: the user lacks a role or the account a setting. */
export function permissionDenied(message: string): SimError {
  return new SimError(403, "PermissionDenied", message);
}

/** 422 with the exact body the real service sends for ordering violations of permissions. */
export const OBSERVER_FIRST_MESSAGE = "A user must have the observer role.";
export function observerFirst(): SimError {
  return new SimError(422, null, OBSERVER_FIRST_MESSAGE);
}

/** 403 with the wording real clients match to log in again. */
export const SESSION_EXPIRED_MESSAGE = "Session cookie is expired or invalid";
export function sessionExpired(): SimError {
  return new SimError(403, null, SESSION_EXPIRED_MESSAGE);
}
