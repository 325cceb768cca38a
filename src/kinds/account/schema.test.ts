import { describe, expect, it } from "vitest";
import { ENDPOINT_RULE } from "../../api/endpoint.ts";
import { InvalidSpecError, parseSpec } from "../../runtime/sdk/index.ts";
import { crdAdmitter } from "../shared/admission.testing.ts";
import { accountDefinition, accountSpecSchema } from "./schema.ts";

const spec = (endpoint: string) => ({
  endpoint,
  accountId: 1,
  oauth: { refreshTokenSecretRef: { name: "svc-credentials" } },
});

const admitAccount = crdAdmitter(accountDefinition);
/** How the CRD's CEL rule on spec.endpoint refuses, as the apiserver (and src/admission) words it. */
const refused = {
  reason: "FieldValueInvalid",
  field: "spec.endpoint",
  message: `Invalid value: "string": ${ENDPOINT_RULE}`,
};

describe("Account spec.endpoint: https, or http to a loopback host", () => {
  it.each([
    { reason: "https", endpoint: "https://us-3.example.com", ok: true },
    { reason: "https with a port", endpoint: "https://us-3.example.com:8443", ok: true },
    { reason: "the simulator on 127.0.0.1", endpoint: "http://127.0.0.1:9292", ok: true },
    { reason: "localhost", endpoint: "http://localhost:9292", ok: true },
    { reason: "IPv6 loopback", endpoint: "http://[::1]:9292", ok: true },
    { reason: "plain http to a remote host", endpoint: "http://us-3.example.com", ok: false },
    { reason: "plain http to a remote IP", endpoint: "http://10.0.0.7:9292", ok: false },
    { reason: "a name that starts like loopback", endpoint: "http://127.0.0.1.evil.test", ok: false },
    { reason: "loopback as user info", endpoint: "http://127.0.0.1@evil.test", ok: false },
    { reason: "localhost as user info", endpoint: "http://localhost@evil.test", ok: false },
    { reason: "a subdomain of localhost", endpoint: "http://evil.localhost", ok: false },
  ])("$reason: $endpoint (zod and the CRD's CEL rule agree)", ({ endpoint, ok }) => {
    expect(accountSpecSchema.safeParse(spec(endpoint)).success).toBe(ok);
    expect(admitAccount(spec(endpoint))).toEqual(ok ? [] : [refused]);
  });

  it("the reconciler's parse names the field and the rule", () => {
    let error: unknown;
    try {
      parseSpec(accountSpecSchema, spec("http://us-3.example.com"));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidSpecError);
    expect((error as InvalidSpecError).message).toBe(`spec.endpoint: ${ENDPOINT_RULE}`);
  });
});
