import { describe, expect, it } from "vitest";
import { ApiError, classifyStatus, errorFromResponse, parseErrorBody, wasNeverSent } from "./errors.ts";

describe("parseErrorBody", () => {
  it.each([
    {
      reason: "typed plain text body",
      body: "ResourceNotFound: Couldn't find Cloud with ID=0 ",
      expected: { errorType: "ResourceNotFound", message: "Couldn't find Cloud with ID=0" },
    },
    {
      reason: "action not allowed",
      body: "ActionNotAllowed: The deployment is locked",
      expected: { errorType: "ActionNotAllowed", message: "The deployment is locked" },
    },
    {
      reason: "namespaced type",
      body: "Mixins::Error: boom",
      expected: { errorType: "Mixins::Error", message: "boom" },
    },
    {
      reason: "untyped text",
      body: "A user must have the observer role.",
      expected: { message: "A user must have the observer role." },
    },
    { reason: "empty body", body: "", expected: { message: "" } },
  ])("$reason", ({ body, expected }) => {
    expect(parseErrorBody(body)).toEqual(expected);
  });

  it("reads a JSON array of [field, message] pairs", () => {
    const parsed = parseErrorBody('[["name","A deployment with this name already exists."]]');
    expect(parsed.fieldErrors).toEqual([["name", "A deployment with this name already exists."]]);
    expect(parsed.message).toBe("name: A deployment with this name already exists.");
    expect(parsed.errorType).toBeUndefined();
  });

  it("keeps a malformed JSON-looking body as text", () => {
    expect(parseErrorBody("[not json")).toEqual({ message: "[not json" });
  });

  it("scrubs before it clips: a credential cut at the 500th character leaves no part behind", () => {
    const secret = "s3cr3t-refresh-token-0123456789";
    const body = `${"x".repeat(490)}${secret} and more`;
    const scrub = (text: string) => text.replaceAll(secret, "[redacted]");
    expect(parseErrorBody(body).message).toContain("s3cr3t-re");
    const parsed = parseErrorBody(body, scrub);
    expect(parsed.message).not.toContain("s3cr3t");
    expect(parsed.message).toBe(`${"x".repeat(490)}[redacted]...`);
  });

  it("scrubs the field errors of a JSON body", () => {
    const parsed = parseErrorBody('[["password","hunter22 is too short"]]', (t) =>
      t.replaceAll("hunter22", "[redacted]"),
    );
    expect(parsed.fieldErrors).toEqual([["password", "[redacted] is too short"]]);
  });
});

describe("classifyStatus", () => {
  it.each([
    { reason: "unknown route", status: 404, type: undefined, kind: "notFound" },
    { reason: "unknown id (422 ResourceNotFound)", status: 422, type: "ResourceNotFound", kind: "notFound" },
    { reason: "locked deployment", status: 422, type: "ActionNotAllowed", kind: "conflict" },
    { reason: "ordering rule", status: 422, type: undefined, kind: "conflict" },
    { reason: "conflict", status: 409, type: undefined, kind: "conflict" },
    { reason: "bad parameter", status: 400, type: "ParameterError", kind: "invalid" },
    { reason: "wrong method", status: 405, type: undefined, kind: "invalid" },
    { reason: "bad credentials", status: 401, type: undefined, kind: "unauthorized" },
    { reason: "missing role", status: 403, type: undefined, kind: "unauthorized" },
    { reason: "throttled", status: 429, type: undefined, kind: "throttled" },
    { reason: "server error", status: 500, type: undefined, kind: "retryable" },
    { reason: "gateway timeout", status: 504, type: undefined, kind: "retryable" },
    { reason: "not implemented", status: 501, type: undefined, kind: "invalid" },
  ])("$reason -> $kind", ({ status, type, kind }) => {
    expect(classifyStatus(status, type).kind).toBe(kind);
  });
});

describe("ApiError", () => {
  it("carries status, service type and message, method, href and a stable code", () => {
    const error = errorFromResponse(
      "GET",
      "/api/clouds/0",
      422,
      "ResourceNotFound: Couldn't find Cloud with ID=0",
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: "notFound",
      code: "SVC_NOT_FOUND",
      status: 422,
      errorType: "ResourceNotFound",
      serviceMessage: "Couldn't find Cloud with ID=0",
      method: "GET",
      href: "/api/clouds/0",
    });
    expect(error.message).toBe("GET /api/clouds/0 -> 422 ResourceNotFound: Couldn't find Cloud with ID=0");
    expect(error.transient).toBe(false);
  });

  it("chains the cause", () => {
    const cause = new Error("socket hang up");
    const error = new ApiError({
      kind: "retryable",
      code: "SVC_NETWORK_ERROR",
      method: "GET",
      href: "/x",
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(error.transient).toBe(true);
  });
});

describe("wasNeverSent", () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });
  it("is true for connect failures, also when wrapped", () => {
    expect(wasNeverSent(withCode("ECONNREFUSED"))).toBe(true);
    expect(wasNeverSent(withCode("UND_ERR_CONNECT_TIMEOUT"))).toBe(true);
    expect(wasNeverSent(new Error("wrapped", { cause: withCode("ECONNREFUSED") }))).toBe(true);
  });
  it("is false once the request may have been delivered", () => {
    expect(wasNeverSent(withCode("ECONNRESET"))).toBe(false);
    expect(wasNeverSent(withCode("UND_ERR_SOCKET"))).toBe(false);
    expect(wasNeverSent(withCode("UND_ERR_HEADERS_TIMEOUT"))).toBe(false);
    expect(wasNeverSent("text")).toBe(false);
  });
});
