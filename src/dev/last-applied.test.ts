import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  goJson,
  LAST_APPLIED,
  lastAppliedConfiguration,
  threeWayMergePatch,
  withLastApplied,
} from "./last-applied.ts";

// Written by kubectl v1.32 itself (`kubectl apply -n demo -f` of WEB_MANIFEST below, and a ConfigMap
// with HTML characters and U+2028), read back from the object: what ours must equal.
const KUBECTL_WEB =
  '{"apiVersion":"cloud.svc.io/v1alpha1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"demo"},"spec":{"description":"Web tier of the demo shop","inputs":{"APP_ENV":"text:production","DB_PASSWORD":"cred:DB_PASSWORD"},"locked":false,"serverTagScope":"deployment"}}\n';
const KUBECTL_ESCAPES =
  '{"apiVersion":"v1","data":{"a":"\\u003c\\u0026\\u003e\\u2028é x","b":"1.50","c":"yes"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"esc","namespace":"demo"}}\n';

/** The manifest kubectl applied for KUBECTL_WEB (keys in file order, not sorted). */
const WEB_MANIFEST = `apiVersion: cloud.svc.io/v1alpha1
kind: Deployment
metadata:
  name: web
spec:
  description: Web tier of the demo shop
  serverTagScope: deployment
  locked: false
  inputs:
    APP_ENV: "text:production"
    DB_PASSWORD: "cred:DB_PASSWORD"
`;

describe("the last-applied annotation, as kubectl computes it", () => {
  it("a manifest: keys sorted, annotations: {}, the namespace it is applied to, a trailing newline", () => {
    const web = parse(WEB_MANIFEST);
    web.metadata.namespace = "demo";
    expect(lastAppliedConfiguration(web)).toBe(KUBECTL_WEB);
  });

  it("escapes as Go does: <, >, & and U+2028; other non-ASCII stays", () => {
    const cm = {
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { namespace: "demo", name: "esc" },
      data: { c: "yes", b: "1.50", a: "<&>\u2028é x" },
    };
    expect(lastAppliedConfiguration(cm)).toBe(KUBECTL_ESCAPES);
  });

  it("leaves out its own previous value but keeps other annotations", () => {
    const m = { kind: "K", metadata: { name: "x", annotations: { a: "1", [LAST_APPLIED]: "old" } } };
    expect(lastAppliedConfiguration(m)).toBe(
      '{"kind":"K","metadata":{"annotations":{"a":"1"},"name":"x"}}\n',
    );
    expect(withLastApplied(m).metadata.annotations).toEqual({
      a: "1",
      [LAST_APPLIED]: '{"kind":"K","metadata":{"annotations":{"a":"1"},"name":"x"}}\n',
    });
  });

  it("numbers, booleans, null and lists as Go writes them", () => {
    expect(goJson({ b: [1, 2.5, -0.001, 1e21], a: null, c: true })).toBe(
      '{"a":null,"b":[1,2.5,-0.001,1e+21],"c":true}',
    );
  });
});

describe("kubectl's three-way merge patch", () => {
  const current = {
    metadata: { name: "x", annotations: { mine: "1", theirs: "2" }, finalizers: ["f"] },
    spec: { a: 1, b: 2, list: [1, 2], defaulted: "D" },
    status: { ready: true },
  };

  it("is empty when the new configuration is what the live object has", () => {
    const modified = {
      metadata: { name: "x", annotations: { mine: "1" } },
      spec: { a: 1, b: 2, list: [1, 2] },
    };
    expect(threeWayMergePatch(modified, modified, current)).toEqual({});
  });

  it("deletes what the last apply set and this one drops; keeps what only others set", () => {
    const original = {
      metadata: { name: "x", annotations: { mine: "1" } },
      spec: { a: 1, b: 2, list: [1, 2] },
    };
    const modified = { metadata: { name: "x", annotations: {} }, spec: { a: 3, list: [2] } };
    expect(threeWayMergePatch(original, modified, current)).toEqual({
      metadata: { annotations: { mine: null } },
      spec: { a: 3, b: null, list: [2] },
    });
  });

  it("without a recorded configuration deletes nothing (as kubectl)", () => {
    const modified = { metadata: { name: "x" }, spec: { a: 1 } };
    expect(threeWayMergePatch(undefined, modified, current)).toEqual({});
  });

  it("sets what the live object lacks, objects whole", () => {
    const modified = { metadata: { name: "x" }, spec: { a: 1, ref: { name: "n" } } };
    expect(threeWayMergePatch(modified, modified, current)).toEqual({ spec: { ref: { name: "n" } } });
  });
});
