import { describe, expect, it } from "vitest";
import { UsageError } from "../lib/cli/index.ts";
import { accessFromEnv, namespacedName } from "./service-access.ts";

const ENDPOINT = "https://us-3.example.com";

describe("accessFromEnv", () => {
  it("a refresh token: an oauth Account naming the Secret key, never the token", () => {
    const a = accessFromEnv(ENDPOINT, 7, { SVC_REFRESH_TOKEN: " rt-1 \n" });
    expect(a.auth).toEqual({ type: "oauth", refreshToken: "rt-1" });
    expect(a.spec).toEqual({
      endpoint: ENDPOINT,
      accountId: 7,
      oauth: { refreshTokenSecretRef: { name: "svc-credentials", key: "refreshToken" } },
    });
    expect(JSON.stringify(a.spec)).not.toContain("rt-1");
    expect(a.secret).toEqual({ name: "svc-credentials", keys: ["refreshToken"] });
  });

  it("an email and a password: a session Account", () => {
    const a = accessFromEnv(ENDPOINT, 7, { SVC_EMAIL: "a@example.com", SVC_PASSWORD: "pw" });
    expect(a.auth).toEqual({ type: "session", email: "a@example.com", password: "pw" });
    expect(a.secret.keys).toEqual(["email", "password"]);
  });

  it.each([
    [{}, "set SVC_REFRESH_TOKEN (or SVC_EMAIL and SVC_PASSWORD)"],
    [{ SVC_EMAIL: "a@example.com" }, "set SVC_PASSWORD"],
    [{ SVC_PASSWORD: "pw" }, "set SVC_EMAIL"],
    [{ SVC_REFRESH_TOKEN: "t", SVC_PASSWORD: "pw" }, "not both"],
  ])("%j is a usage error naming what to set", (env, message) => {
    expect(() => accessFromEnv(ENDPOINT, 7, env)).toThrow(UsageError);
    expect(() => accessFromEnv(ENDPOINT, 7, env)).toThrow(message);
  });
});

describe("namespacedName", () => {
  it("is NAMESPACE/NAME", () => {
    expect(namespacedName.parse("team-a/default")).toEqual({ namespace: "team-a", name: "default" });
    expect(namespacedName.safeParse("default").success).toBe(false);
  });
});
