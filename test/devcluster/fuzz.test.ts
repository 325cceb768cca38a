import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await createCrd(h, widgetCrd());
});
afterAll(async () => {
  await h.cluster.close();
});

/** A small seeded generator, so a failure reproduces (FUZZ_SEED=n explores other inputs). */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WEIRD: unknown[] = [
  null,
  5,
  -1,
  "x",
  "",
  true,
  [],
  [1, "a", null],
  {},
  { a: { b: { c: [] } } },
  "Bad_Name",
  "a".repeat(300),
  { "": 1 },
  [{ uid: 5 }],
];

describe("malformed requests", () => {
  it("never get a 5xx, and the server keeps answering", async () => {
    const random = prng(Number(process.env.FUZZ_SEED ?? 4242));
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const paths = [
      `/apis/${GROUP}/v1/namespaces/default/widgets`,
      `/apis/${GROUP}/v1/namespaces/default/widgets/fz`,
      `/apis/${GROUP}/v1/namespaces/default/widgets/fz/status`,
      "/api/v1/namespaces/default/secrets",
      "/api/v1/namespaces/default/secrets/fz",
      "/api/v1/namespaces/default/configmaps/fz",
      "/api/v1/namespaces/default/events",
      "/api/v1/namespaces/fz",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      "/apis/coordination.k8s.io/v1/namespaces/default/leases/fz",
    ];
    const types = [
      "application/json",
      "application/yaml",
      "application/merge-patch+json",
      "application/json-patch+json",
      "application/strategic-merge-patch+json",
      "application/apply-patch+yaml",
      "application/vnd.kubernetes.protobuf",
      "text/plain",
    ];
    const failures: string[] = [];
    for (let i = 0; i < 400; i++) {
      const metadata: Record<string, unknown> = { name: random() < 0.7 ? "fz" : pick(WEIRD) };
      for (const key of [
        "labels",
        "annotations",
        "finalizers",
        "ownerReferences",
        "namespace",
        "resourceVersion",
        "generateName",
      ]) {
        if (random() < 0.15) metadata[key] = pick(WEIRD);
      }
      const object: Record<string, unknown> = {
        apiVersion: random() < 0.8 ? pick([`${GROUP}/v1`, "v1", "apiextensions.k8s.io/v1"]) : pick(WEIRD),
        kind:
          random() < 0.8
            ? pick(["Widget", "Secret", "ConfigMap", "CustomResourceDefinition", "Namespace"])
            : pick(WEIRD),
        metadata: random() < 0.9 ? metadata : pick(WEIRD),
      };
      for (const key of ["spec", "status", "data", "stringData", "involvedObject", "type", "immutable"]) {
        if (random() < 0.3) object[key] = pick(WEIRD);
      }
      let body: string;
      const shape = random();
      if (shape < 0.1) body = "{ not json";
      else if (shape < 0.2) body = JSON.stringify(pick(WEIRD));
      else if (shape < 0.3)
        body = JSON.stringify([
          {
            op: pick(["add", "remove", "test", "bogus"]),
            path: pick(["/spec", "/metadata/name", "x", ""]),
            value: pick(WEIRD),
          },
        ]);
      else if (shape < 0.35) body = "k8s\0garbage";
      else body = JSON.stringify(object);
      const path =
        pick(paths) +
        (random() < 0.2
          ? pick([
              "?fieldManager=fz",
              "?force=true",
              "?dryRun=All",
              "?fieldValidation=Strict",
              "?labelSelector=a+in+",
              "?limit=x",
              "?watch=1&resourceVersion=abc",
            ])
          : "");
      const method = pick(["POST", "PUT", "PATCH", "DELETE", "GET"]);
      const res = await h.http(path, {
        method,
        headers: { "Content-Type": pick(types) },
        body: method === "GET" ? undefined : body,
      });
      const text = await res.text();
      if (res.status >= 500)
        failures.push(`${method} ${path} ${body.slice(0, 120)} -> ${res.status} ${text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect((await h.http("/version")).status).toBe(200);
    expect((await h.http("/api/v1/namespaces")).status).toBe(200);
  });
});
