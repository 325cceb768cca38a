import { it } from "vitest";
import type { Differ } from "./differ.ts";
import type { RawRequest } from "./endpoints.ts";
import { core, GROUP, gizmo, gizmos } from "./fixtures.ts";

/** The error answers: 404, 409 (exists, conflict), 422 with causes, 400, an unknown kind. */
export function errorCases(differ: () => Differ): void {
  it("answers 404, 409 and 422 as the real server does", async () => {
    const d = differ();
    const ns = d.namespace;
    const post = (path: string, body: unknown): RawRequest => ({ method: "POST", path, body });
    const cases: [string, RawRequest][] = [
      ["GET missing gizmo", { path: gizmos(ns, "missing") }],
      ["GET missing configmap", { path: core(ns, "configmaps", "missing") }],
      ["GET missing namespace", { path: "/api/v1/namespaces/missing-dx" }],
      ["POST gizmo in a missing namespace", post(gizmos("missing-dx"), gizmo("x"))],
      [
        "POST configmap in a missing namespace",
        post(core("missing-dx", "configmaps"), { metadata: { name: "x" } }),
      ],
      ["POST gizmo exists", post(gizmos(ns), gizmo("e1"))],
      ["POST gizmo exists again", post(gizmos(ns), gizmo("e1"))],
      ["POST configmap exists", post(core(ns, "configmaps"), { metadata: { name: "e1" } })],
      ["POST configmap exists again", post(core(ns, "configmaps"), { metadata: { name: "e1" } })],
      // One error each: the real server lists several schema errors in Go's map order.
      ["POST gizmo below its minimum", post(gizmos(ns), gizmo("bad", { size: 0 }))],
      ["POST gizmo not in its enum", post(gizmos(ns), gizmo("bad", { size: 2, color: "green" }))],
      ["POST gizmo of a wrong type", post(gizmos(ns), gizmo("bad", { size: 2, tags: "x" }))],
      ["POST gizmo failing a CEL rule", post(gizmos(ns), gizmo("cel", { size: 1, color: "red" }))],
      ["POST gizmo with a bad name", post(gizmos(ns), gizmo("Bad_Name", { size: 2 }))],
      ["POST gizmo with a bad label key", post(gizmos(ns), gizmo("bad", { size: 2 }, { "a/b/c": "x" }))],
      ["POST gizmo with a bad label prefix", post(gizmos(ns), gizmo("bad", { size: 2 }, { "-x-/y": "1" }))],
      ["POST gizmo with a bad label value", post(gizmos(ns), gizmo("bad", { size: 2 }, { ok: "-bad-" }))],
      ["POST gizmo without a name", post(gizmos(ns), { ...gizmo(""), metadata: {} })],
      [
        "POST gizmo with a resourceVersion",
        post(gizmos(ns), { ...gizmo("rv"), metadata: { name: "rv", resourceVersion: "5" } }),
      ],
      ["POST gizmo of another kind", post(gizmos(ns), { ...gizmo("k"), kind: "Widget" })],
      ["POST gizmo of another apiVersion", post(gizmos(ns), { ...gizmo("k"), apiVersion: "other.io/v1" })],
      [
        "POST gizmo without apiVersion",
        post(gizmos(ns), { kind: "Gizmo", metadata: { name: "k" }, spec: { size: 2 } }),
      ],
      [
        "POST gizmo of another namespace",
        post(gizmos(ns), { ...gizmo("n"), metadata: { name: "n", namespace: "other" } }),
      ],
      [
        "POST gizmo duplicate map keys",
        post(gizmos(ns), gizmo("dup", { size: 2, ports: [{ name: "a" }, { name: "a" }] })),
      ],
      [
        "POST gizmo strict unknown field",
        post(`${gizmos(ns)}?fieldValidation=Strict`, gizmo("strict", { size: 2, nope: 1 })),
      ],
      [
        "POST gizmo warn unknown field",
        post(`${gizmos(ns)}?fieldValidation=Warn`, gizmo("warn", { size: 2, nope: 1 })),
      ],
      [
        "POST configmap bad key",
        post(core(ns, "configmaps"), { metadata: { name: "badkey" }, data: { "a b": "x" } }),
      ],
      [
        "POST secret bad base64",
        post(core(ns, "secrets"), { metadata: { name: "b64" }, data: { k: "%%%" } }),
      ],
      [
        "PUT gizmo name mismatch",
        {
          method: "PUT",
          path: gizmos(ns, "e1"),
          body: { ...gizmo("other"), metadata: { name: "other", resourceVersion: "1" } },
        },
      ],
    ];
    for (const [id, request] of cases) await d.http(id, request);
  });

  it("answers malformed requests and unknown kinds as the real server does", async () => {
    const d = differ();
    const ns = d.namespace;
    const cases: [string, RawRequest][] = [
      ["POST gizmo not JSON", { method: "POST", path: gizmos(ns), body: "{not json" }],
      ["POST gizmo a JSON array", { method: "POST", path: gizmos(ns), body: "[1]" }],
      ["POST configmap not JSON", { method: "POST", path: core(ns, "configmaps"), body: "{not json" }],
      ["GET unknown resource of a CRD's group", { path: `/apis/${GROUP}/v1/namespaces/${ns}/nothings` }],
      ["GET unknown group", { path: "/apis/nothing.svc.io/v1/things" }],
      ["GET unknown version of a CRD's group", { path: `/apis/${GROUP}/v9/gizmos` }],
      ["GET unknown version of a built-in group", { path: "/apis/coordination.k8s.io/v9/leases" }],
      ["GET unknown core resource", { path: `/api/v1/namespaces/${ns}/nothings` }],
      ["GET unknown path", { path: "/nothing" }],
      ["LIST bad label selector", { path: `${gizmos(ns)}?labelSelector=${encodeURIComponent("a in (")}` }],
      ["LIST unknown field selector", { path: `${gizmos(ns)}?fieldSelector=spec.nope%3D1` }],
      ["LIST bad limit", { path: `${gizmos(ns)}?limit=x` }],
      [
        "POST unsupported media type",
        { method: "POST", path: gizmos(ns), contentType: "text/plain", body: "x" },
      ],
      [
        "DELETE collection of namespaces",
        { method: "DELETE", path: "/api/v1/namespaces?labelSelector=none-of-them" },
      ],
      ["POST to a named gizmo", { method: "POST", path: gizmos(ns, "e1"), body: gizmo("e1") }],
      [
        "POST to a named gizmo, another name in the body",
        { method: "POST", path: gizmos(ns, "zz"), body: gizmo("yy") },
      ],
    ];
    for (const [id, request] of cases) await d.http(id, request);
  });
}
