import { ApiException } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import {
  callOf,
  describeKubeFailure,
  isEnvironmental,
  isNamespaceTerminating,
  kubeFailureOf,
} from "./kube-errors.ts";
import { KubeHttpError } from "./kube-raw.ts";

const SERVER = "https://10.0.0.1:6443";
const FORBIDDEN_MESSAGE =
  'accounts.cloud.svc.io is forbidden: User "system:serviceaccount:svc-operator-system:svc-operator" cannot list resource "accounts" in API group "cloud.svc.io" at the cluster scope';
const status = (code: number, reason: string, message: string) =>
  JSON.stringify({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
  });

/** What client-node throws for a list the apiserver refuses: the body a JSON string, the headers along. */
const listRefused = () =>
  new ApiException(403, "Unknown API Status Code!", status(403, "Forbidden", FORBIDDEN_MESSAGE), {
    "content-type": "application/json",
    "audit-id": "0c7e",
  });

/** What fetch throws when nothing listens: the code two causes down. */
function refused(): Error {
  const socket = Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:6443"), { code: "ECONNREFUSED" });
  return new TypeError("fetch failed", { cause: socket });
}

describe("kubeFailureOf", () => {
  it("reads the apiserver's Status message out of client-node's ApiException, not its headers", () => {
    const failure = kubeFailureOf(listRefused());
    expect(failure).toEqual({ reason: "forbidden", status: 403, detail: FORBIDDEN_MESSAGE });
  });

  it("takes a Watch's bare status error, RawKube's errors and network causes", () => {
    const watch = Object.assign(new Error("Forbidden"), { statusCode: 403 });
    expect(kubeFailureOf(watch)).toEqual({ reason: "forbidden", status: 403, detail: "Forbidden" });
    const raw = new KubeHttpError(
      404,
      "GET",
      "/apis/cloud.svc.io/v1alpha1/accounts",
      status(404, "NotFound", "the server could not find the requested resource"),
    );
    expect(kubeFailureOf(raw)).toEqual({
      reason: "notFound",
      status: 404,
      detail: "the server could not find the requested resource",
    });
    expect(kubeFailureOf(new ApiException(401, "Unauthorized", undefined, {}))).toMatchObject({
      reason: "unauthorized",
      status: 401,
    });
    expect(kubeFailureOf(refused())).toEqual({
      reason: "unreachable",
      code: "ECONNREFUSED",
      detail: "connect ECONNREFUSED 10.0.0.1:6443",
    });
    const tls = new TypeError("fetch failed", {
      cause: Object.assign(new Error("self-signed certificate"), { code: "DEPTH_ZERO_SELF_SIGNED_CERT" }),
    });
    expect(kubeFailureOf(tls).reason).toBe("tls");
    expect(kubeFailureOf(Object.assign(new Error("x"), { code: "UND_ERR_CONNECT_TIMEOUT" })).reason).toBe(
      "timeout",
    );
    expect(kubeFailureOf(new ApiException(503, "x", "busy", {})).reason).toBe("serverError");
    expect(kubeFailureOf(new ApiException(429, "x", "slow down", {})).reason).toBe("throttled");
    expect(kubeFailureOf("a string")).toEqual({ reason: "other", detail: "a string" });
  });

  it("keeps the detail to one short line", () => {
    const long = new ApiException(500, "x", status(500, "InternalError", `a\n${"b".repeat(1000)}`), {});
    const { detail } = kubeFailureOf(long);
    expect(detail).not.toContain("\n");
    expect(detail.length).toBeLessThanOrEqual(303);
  });
});

describe("describeKubeFailure", () => {
  it("names the verb, the resource, the status, the apiserver's message and the fix", () => {
    const line = describeKubeFailure(
      { verb: "list", resource: "accounts.cloud.svc.io" },
      kubeFailureOf(listRefused()),
      SERVER,
    );
    expect(line).toBe(
      `cannot list accounts.cloud.svc.io (403 Forbidden: ${FORBIDDEN_MESSAGE}); ` +
        "the operator's ServiceAccount lacks `list` on accounts.cloud.svc.io: apply deploy/operator/rbac.yaml",
    );
    expect(line).not.toContain("audit-id");
    expect(line).not.toContain("\\");
  });

  it.each([
    [
      "a CRD missing",
      { verb: "list", resource: "volumes.cloud.svc.io" },
      new KubeHttpError(
        404,
        "GET",
        "/x",
        status(404, "NotFound", "the server could not find the requested resource"),
      ),
      "the CRD volumes.cloud.svc.io is not installed: apply crds/",
    ],
    [
      "a refused token",
      { verb: "list", resource: "accounts.cloud.svc.io" },
      new ApiException(401, "Unauthorized", undefined, {}),
      "(401 Unauthorized); the apiserver refuses the operator's credentials: renew the token",
    ],
    [
      "nothing listening",
      { verb: "watch", resource: "accounts.cloud.svc.io" },
      refused(),
      `(ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:6443); cannot reach the apiserver at ${SERVER}: check the server address`,
    ],
    [
      "a user that is not a ServiceAccount",
      { verb: "patch", resource: "deployments.cloud.svc.io/status", namespace: "a" },
      new KubeHttpError(
        403,
        "PATCH",
        "/x",
        status(
          403,
          "Forbidden",
          'deployments.cloud.svc.io "web" is forbidden: User "alice" cannot patch resource "deployments/status" in API group "cloud.svc.io" in the namespace "a"',
        ),
      ),
      'cannot patch deployments.cloud.svc.io/status in namespace a (403 Forbidden: deployments.cloud.svc.io "web" is forbidden: User "alice" cannot patch resource "deployments/status" in API group "cloud.svc.io" in the namespace "a"); the operator\'s user alice lacks `patch`',
    ],
  ])("%s", (_name, call, error, fragment) => {
    expect(describeKubeFailure(call, kubeFailureOf(error), SERVER)).toContain(fragment);
  });
});

/** kube-apiserver 1.32's answers to an Event create, as it sends them (measured on a real one). */
const TERMINATING = JSON.stringify({
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message:
    'events "x.1" is forbidden: unable to create new content in namespace team-a because it is being terminated',
  reason: "Forbidden",
  details: {
    name: "x.1",
    kind: "events",
    causes: [
      {
        reason: "NamespaceTerminating",
        message: "namespace team-a is being terminated",
        field: "metadata.namespace",
      },
    ],
  },
  code: 403,
});
const RBAC_REFUSED = JSON.stringify({
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message:
    'events is forbidden: User "system:serviceaccount:ops:op" cannot create resource "events" in API group "" in the namespace "team-a"',
  reason: "Forbidden",
  details: { kind: "events" },
  code: 403,
});

describe("a 403 of a namespace being deleted, told apart from RBAC's by the Status's causes", () => {
  const call = { verb: "create", resource: "events", namespace: "team-a" };
  const path = "/api/v1/namespaces/team-a/events";

  it.each([
    ["RawKube", new KubeHttpError(403, "POST", path, TERMINATING)],
    ["client-node", new ApiException(403, "Forbidden", TERMINATING, {})],
  ])("%s: blames the namespace, is no RBAC problem, says nothing is to fix", (_client, error) => {
    const failure = kubeFailureOf(error);
    expect(failure).toMatchObject({ reason: "forbidden", status: 403, causes: ["NamespaceTerminating"] });
    expect(isNamespaceTerminating(failure)).toBe(true);
    expect(isEnvironmental(failure, call)).toBe(false);
    const line = describeKubeFailure(call, failure, SERVER);
    expect(line).toBe(
      'cannot create events in namespace team-a (403 Forbidden: events "x.1" is forbidden: unable to create new ' +
        "content in namespace team-a because it is being terminated); namespace team-a is being deleted " +
        "(kube-apiserver creates nothing new in a terminating namespace): nothing to fix",
    );
    expect(line).not.toContain("rbac");
  });

  it("RBAC's own 403 (no cause) still says what the ServiceAccount lacks", () => {
    const failure = kubeFailureOf(new KubeHttpError(403, "POST", path, RBAC_REFUSED));
    expect(failure.causes).toBeUndefined();
    expect(isNamespaceTerminating(failure)).toBe(false);
    expect(isEnvironmental(failure, call)).toBe(true);
    expect(describeKubeFailure(call, failure, SERVER)).toContain(
      "the operator's ServiceAccount lacks `create` on events: apply deploy/operator/rbac.yaml",
    );
  });
});

describe("isEnvironmental", () => {
  it("counts a 404 of a collection (a CRD missing), not of one object (it is gone)", () => {
    const notFound = kubeFailureOf(new KubeHttpError(404, "GET", "/x", "{}"));
    expect(isEnvironmental(notFound, { verb: "list" })).toBe(true);
    expect(isEnvironmental(notFound, { verb: "patch" })).toBe(false);
    expect(
      isEnvironmental(kubeFailureOf(new KubeHttpError(422, "PATCH", "/x", "{}")), { verb: "patch" }),
    ).toBe(false);
    expect(isEnvironmental(kubeFailureOf(refused()), { verb: "patch" })).toBe(true);
  });
});

describe("callOf", () => {
  it.each([
    [
      "PATCH",
      "/apis/cloud.svc.io/v1alpha1/namespaces/a/deployments/web/status",
      { verb: "patch", resource: "deployments.cloud.svc.io/status", namespace: "a" },
    ],
    ["GET", "/api/v1/namespaces/a/secrets/creds", { verb: "get", resource: "secrets", namespace: "a" }],
    ["POST", "/api/v1/namespaces/a/events", { verb: "create", resource: "events", namespace: "a" }],
    [
      "GET",
      "/apis/cloud.svc.io/v1alpha1/accounts?limit=500",
      { verb: "list", resource: "accounts.cloud.svc.io" },
    ],
  ])("%s %s", (method, path, call) => expect(callOf(method, path)).toEqual(call));
});
