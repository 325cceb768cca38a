import { describe, expect, it } from "vitest";
import { definitionName, openApiV2, openApiV3GroupVersion, openApiV3Index } from "./openapi.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests walk deep into untyped JSON documents
type Obj = Record<string, any>;

const routeCrd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "routes.cloud.svc.io" },
  spec: {
    group: "cloud.svc.io",
    scope: "Namespaced",
    names: { plural: "routes", singular: "route", kind: "Route", listKind: "RouteList" },
    versions: [
      {
        name: "v1alpha1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            description: "A route",
            properties: {
              apiVersion: { type: "string" },
              kind: { type: "string" },
              metadata: { type: "object" },
              spec: {
                type: "object",
                required: ["destinationCidrBlock"],
                properties: {
                  destinationCidrBlock: { type: "string", nullable: true },
                  gateway: { type: "string", description: "Href of the gateway" },
                  port: {
                    "x-kubernetes-int-or-string": true,
                    anyOf: [{ type: "integer" }, { type: "string" }],
                  },
                },
                "x-kubernetes-validations": [{ rule: "true" }],
              },
              status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            },
          },
        },
      },
      { name: "v1alpha0", served: false, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
    ],
  },
};

const clusterCrd = {
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Cluster",
    names: { plural: "widgets", kind: "Widget" },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
  },
};

describe("definitionName", () => {
  const cases: [string, string, string, string, string][] = [
    [
      "cloud.svc.io",
      "v1alpha1",
      "Route",
      "io.svc.cloud.v1alpha1.Route",
      "group reversed, then version and kind",
    ],
    ["example.com", "v1", "Widget", "com.example.v1.Widget", "two-label group"],
  ];
  it.each(cases)("%s %s %s -> %s (%s)", (g, v, k, want) => {
    expect(definitionName(g, v, k)).toBe(want);
  });
});

describe("openApiV2", () => {
  const doc = openApiV2([routeCrd, clusterCrd]) as Obj;
  const route = doc.definitions["io.svc.cloud.v1alpha1.Route"];

  it("is a swagger 2.0 document", () => {
    expect(doc.swagger).toBe("2.0");
    expect(doc.info.title).toBe("Kubernetes");
  });

  it("has a definition per served CRD version with its group-version-kind", () => {
    expect(route["x-kubernetes-group-version-kind"]).toEqual([
      { group: "cloud.svc.io", kind: "Route", version: "v1alpha1" },
    ]);
    expect(doc.definitions["io.svc.cloud.v1alpha0.Route"]).toBeUndefined();
    expect(doc.definitions["com.example.v1.Widget"]).toBeDefined();
    expect(doc.definitions["io.svc.cloud.v1alpha1.RouteList"]["x-kubernetes-group-version-kind"]).toEqual([
      { group: "cloud.svc.io", kind: "RouteList", version: "v1alpha1" },
    ]);
  });

  it("keeps the CRD schema, references ObjectMeta for metadata, and drops what v2 cannot say", () => {
    expect(route.description).toBe("A route");
    expect(route.properties.metadata.$ref).toBe(
      "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    );
    // A nullable field loses its type, and is no longer required.
    expect(route.properties.spec.required).toBeUndefined();
    expect(route.properties.spec.properties.destinationCidrBlock).toEqual({});
    expect(route.properties.spec.properties.port).toEqual({ "x-kubernetes-int-or-string": true });
    expect(route.properties.spec.properties.gateway).toEqual({
      type: "string",
      description: "Href of the gateway",
    });
    expect(doc.definitions["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"].properties.name).toEqual({
      type: "string",
      description: expect.stringMatching(/^Name must be unique within a namespace\./),
    });
  });

  it("includes minimal definitions for the built-in kinds", () => {
    for (const name of [
      "io.k8s.api.core.v1.Namespace",
      "io.k8s.api.core.v1.Secret",
      "io.k8s.api.core.v1.ConfigMap",
      "io.k8s.api.core.v1.Event",
      "io.k8s.api.events.v1.Event",
      "io.k8s.api.coordination.v1.Lease",
      "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
    ]) {
      expect(doc.definitions[name]?.["x-kubernetes-group-version-kind"], name).toHaveLength(1);
    }
  });

  it("has namespaced and cluster-scoped paths with the kind on every operation", () => {
    const item = doc.paths["/apis/cloud.svc.io/v1alpha1/namespaces/{namespace}/routes/{name}"];
    expect(item.patch["x-kubernetes-group-version-kind"]).toEqual({
      group: "cloud.svc.io",
      version: "v1alpha1",
      kind: "Route",
    });
    expect(item.patch.parameters.map((p: Obj) => p.name)).toContain("fieldValidation");
    expect(
      doc.paths["/apis/cloud.svc.io/v1alpha1/namespaces/{namespace}/routes/{name}/status"],
    ).toBeDefined();
    expect(doc.paths["/apis/example.com/v1/widgets/{name}"].get["x-kubernetes-action"]).toBe("get");
    expect(doc.paths["/api/v1/namespaces/{namespace}/secrets"].post).toBeDefined();
  });
});

describe("openApiV3", () => {
  it("indexes every served group-version with a hashed serverRelativeURL", () => {
    const index = openApiV3Index([routeCrd]) as Obj;
    expect(Object.keys(index.paths)).toEqual([
      "api/v1",
      "apis/apiextensions.k8s.io/v1",
      "apis/cloud.svc.io/v1alpha1",
      "apis/coordination.k8s.io/v1",
      "apis/events.k8s.io/v1",
    ]);
    expect(index.paths["apis/cloud.svc.io/v1alpha1"].serverRelativeURL).toMatch(
      /^\/openapi\/v3\/apis\/cloud\.svc\.io\/v1alpha1\?hash=[0-9A-F]{128}$/,
    );
  });

  it("changes the hash when the schema changes (clients cache by it)", () => {
    const a = (openApiV3Index([routeCrd]) as Obj).paths["apis/cloud.svc.io/v1alpha1"].serverRelativeURL;
    const changed = structuredClone(routeCrd);
    changed.spec.versions[0]!.schema.openAPIV3Schema.description = "changed";
    const b = (openApiV3Index([changed]) as Obj).paths["apis/cloud.svc.io/v1alpha1"].serverRelativeURL;
    expect(a).not.toBe(b);
  });

  it("serves a group-version document with components.schemas and the kind's PATCH path (kubectl's fieldValidation check)", () => {
    const doc = openApiV3GroupVersion([routeCrd], "cloud.svc.io", "v1alpha1") as Obj;
    expect(doc.openapi).toBe("3.0.0");
    const route = doc.components.schemas["io.svc.cloud.v1alpha1.Route"];
    expect(route["x-kubernetes-group-version-kind"]).toEqual([
      { group: "cloud.svc.io", kind: "Route", version: "v1alpha1" },
    ]);
    expect(route.properties.metadata.allOf).toEqual([
      { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" },
    ]);
    expect(route.properties.spec.properties.destinationCidrBlock).toEqual({ type: "string", nullable: true });
    expect(route.properties.spec["x-kubernetes-validations"]).toEqual([{ rule: "true" }]);
    expect(doc.components.schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]).toBeDefined();
    const patch = doc.paths["/apis/cloud.svc.io/v1alpha1/namespaces/{namespace}/routes/{name}"].patch;
    expect(patch["x-kubernetes-group-version-kind"]).toEqual({
      group: "cloud.svc.io",
      version: "v1alpha1",
      kind: "Route",
    });
    expect(patch.parameters.find((p: Obj) => p.name === "fieldValidation")).toMatchObject({
      in: "query",
      schema: { type: "string" },
    });
    expect(Object.keys(patch.requestBody.content)).toContain("application/apply-patch+yaml");
  });

  it("offers strategic merge patch only for built-ins, so kubectl apply sends merge patches to custom resources", () => {
    const crPatch = (openApiV3GroupVersion([routeCrd], "cloud.svc.io", "v1alpha1") as Obj).paths[
      "/apis/cloud.svc.io/v1alpha1/namespaces/{namespace}/routes/{name}"
    ].patch;
    expect(Object.keys(crPatch.requestBody.content)).toEqual([
      "application/json-patch+json",
      "application/merge-patch+json",
      "application/apply-patch+yaml",
    ]);
    const secretPatch = (openApiV3GroupVersion([], "", "v1") as Obj).paths[
      "/api/v1/namespaces/{namespace}/secrets/{name}"
    ].patch;
    expect(Object.keys(secretPatch.requestBody.content)).toContain("application/strategic-merge-patch+json");
  });

  it("serves the core group as api/v1 and nothing for unknown group-versions", () => {
    const core = openApiV3GroupVersion([], "", "v1") as Obj;
    expect(core.components.schemas["io.k8s.api.core.v1.Secret"]).toBeDefined();
    expect(core.paths["/api/v1/namespaces/{name}"]).toBeDefined();
    expect(openApiV3GroupVersion([routeCrd], "cloud.svc.io", "v1alpha0")).toBeUndefined();
    expect(openApiV3GroupVersion([], "nope.io", "v1")).toBeUndefined();
  });

  it("carries the CRD's descriptions and describes every ObjectMeta field (what kubectl explain prints)", () => {
    const doc = openApiV3GroupVersion([routeCrd], "cloud.svc.io", "v1alpha1") as Obj;
    const route = doc.components.schemas["io.svc.cloud.v1alpha1.Route"];
    expect(route.description).toBe("A route");
    expect(route.properties.spec.properties.gateway.description).toBe("Href of the gateway");
    const objectMeta = doc.components.schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"];
    const undescribed = Object.entries(objectMeta.properties as Record<string, Obj>)
      .filter(([, schema]) => typeof schema.description !== "string" || schema.description === "")
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
    expect(objectMeta.properties.ownerReferences).toMatchObject({
      description: expect.stringContaining("garbage collected"),
      items: { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference" },
    });
  });

  it("skips malformed CRDs instead of failing", () => {
    expect(() => openApiV3Index([{ spec: {} }, { metadata: {} }, null as unknown as Obj])).not.toThrow();
    expect(() =>
      openApiV2([
        { spec: { group: "a.io", names: { kind: "A" }, versions: [null, { name: "v1", served: true }] } },
      ]),
    ).not.toThrow();
  });
});
