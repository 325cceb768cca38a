/**
 * `kubectl apply` of a kind the server does not know, through the requests kubectl 1.32 sends
 * (recorded with -v=8): /openapi/v3 does not describe the kind, so kubectl lists the CRDs and
 * reads /openapi/v2 in protobuf to validate client-side; the document must decode (it finds no
 * schema for the kind and skips validation), after which aggregated discovery has no such group
 * and kubectl reports `no matches for kind "Bar" in version "foo.example.com/v1"`.
 */
import { fromBinary, toJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { gnosticMessage } from "../../src/devcluster/openapi/gnostic.ts";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

const PROTOBUF_ACCEPT = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
const DISCOVERY_ACCEPT =
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await createCrd(h, widgetCrd());
});
afterAll(async () => {
  await h.cluster.close();
});

/** gnostic's Schema as JSON, the part read here. */
interface Schema {
  vendor_extension?: { name: string; value: { yaml: string } }[];
}

const get = (path: string, accept: string) => h.http(path, { headers: { Accept: accept } });

describe("applying a kind the server does not serve", () => {
  it("serves everything kubectl reads before it reports the missing kind", async () => {
    const index = (await (await get("/openapi/v3?timeout=32s", "application/json, */*")).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(index.paths)).toContain(`apis/${GROUP}/v1`);
    expect(Object.keys(index.paths)).not.toContain("apis/foo.example.com/v1");
    const crds = await get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json");
    expect(crds.status).toBe(200);

    const v2 = await get("/openapi/v2?timeout=32s", PROTOBUF_ACCEPT);
    expect(v2.status).toBe(200);
    expect(v2.headers.get("content-type")).toBe("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    const Document = gnosticMessage("Document");
    const doc = toJson(Document, fromBinary(Document, new Uint8Array(await v2.arrayBuffer())), {
      useProtoFieldName: true,
    }) as unknown as {
      swagger: string;
      definitions: { additional_properties: { name: string; value: Schema }[] };
    };
    expect(doc.swagger).toBe("2.0");
    // kubectl looks the kind up by x-kubernetes-group-version-kind: the CRD's is there, Bar's is not.
    const kinds = doc.definitions.additional_properties.flatMap(({ value }) =>
      (value.vendor_extension ?? [])
        .filter((e: { name: string }) => e.name === "x-kubernetes-group-version-kind")
        .flatMap(
          (e: { value: { yaml: string } }) => parse(e.value.yaml) as { group: string; kind: string }[],
        ),
    );
    expect(kinds).toContainEqual({ group: GROUP, kind: "Widget", version: "v1" });
    expect(kinds.some((k) => k.kind === "Bar")).toBe(false);

    for (const path of ["/api?timeout=32s", "/apis?timeout=32s"]) {
      const res = await get(path, DISCOVERY_ACCEPT);
      const groups = ((await res.json()) as { items: { metadata: { name?: string } }[] }).items;
      expect(groups.map((g) => g.metadata.name)).not.toContain("foo.example.com");
    }
  });

  it("still answers JSON to JSON clients, and 406 to a type it cannot serve", async () => {
    const json = await get("/openapi/v2", "application/json");
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(((await json.json()) as { swagger: string }).swagger).toBe("2.0");
    const refused = await get("/openapi/v2", "text/html");
    expect(refused.status).toBe(406);
    expect(await refused.text()).toBe("");
  });
});
