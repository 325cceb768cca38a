import { describe, expect, it } from "vitest";
import { ENDPOINT_CEL_RULE, ENDPOINT_RULE } from "../../api/endpoint.ts";
import { compileRule } from "../../devcluster/admission/cel-compile.ts";
import { evaluate } from "../../devcluster/admission/cel-runtime.ts";
import { parseSpec } from "../../runtime/reconciler.ts";
import { InvalidSpecError } from "../../runtime/result.ts";
import { accountSpecSchema } from "./schema.ts";

const spec = (endpoint: string) => ({
  endpoint,
  accountId: 1,
  oauth: { refreshTokenSecretRef: { name: "svc-credentials" } },
});

/** The CRD's CEL rule on spec.endpoint, run as the apiserver would (the devcluster's CEL). */
function celAdmits(endpoint: string): boolean {
  const compiled = compileRule(
    { rule: ENDPOINT_CEL_RULE, message: ENDPOINT_RULE },
    { type: "string", maxLength: 2048 },
    false,
  );
  if (!compiled.program) throw new Error(`the rule does not compile: ${compiled.error}`);
  const result = evaluate(compiled.program, { self: endpoint });
  if (!result.ok) throw new Error(result.error);
  return result.value === true;
}

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
    expect(celAdmits(endpoint)).toBe(ok);
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
