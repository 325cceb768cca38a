import { expect, it } from "vitest";
import { waitOn } from "./crd.cases.ts";
import type { Differ } from "./differ.ts";
import type { Answer } from "./endpoints.ts";
import { CRD_PATH, GROUP } from "./fixtures.ts";

/** The Gizmo's definition name in /openapi/v2 (the group reversed, as kube-openapi names it). */
const DEFINITION = `${GROUP.split(".").reverse().join(".")}.v1.Gizmo`;

/** kubectl's Accept for aggregated discovery. */
const AGGREGATED =
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

type Doc = Record<string, unknown>;
const body = (a: Answer) => a.body as Doc;
const names = (items: unknown, key: string) => (items as Doc[]).map((i) => String(i[key]));

/**
 * The groups of CRDs other test files of the run installed on the shared kube-apiserver: not the
 * devcluster's business, so not counted as what only kube-apiserver serves.
 */
async function otherTestsGroups(d: Differ): Promise<Set<string>> {
  const crds = await d.pair.real.call({ path: CRD_PATH });
  const groups = ((body(crds).items as Doc[]) ?? []).map((crd) => String((crd.spec as Doc).group));
  return new Set(groups.filter((g) => g !== GROUP));
}

/** Each operation's id, action, kind and parameter names, per path and method. */
function operations(a: Answer): Doc {
  const paths = body(a).paths as Record<string, Record<string, Doc>>;
  const parameterNames = (ps: unknown) =>
    ((ps as Doc[] | undefined) ?? []).map((p) => String(p.name ?? p.$ref)).sort();
  return Object.fromEntries(
    Object.entries(paths).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, op]) =>
          method === "parameters"
            ? [method, parameterNames(op)]
            : [
                method,
                {
                  operationId: op.operationId,
                  action: op["x-kubernetes-action"],
                  kind: op["x-kubernetes-group-version-kind"],
                  parameters: parameterNames(op.parameters),
                },
              ],
        ),
      ),
    ]),
  );
}

/**
 * Discovery and OpenAPI: what the devcluster serves must read as on the real server; what only
 * the real server serves (the built-in resources the devcluster lacks) is listed.
 */
export function discoveryCases(differ: () => Differ): void {
  it("serves /version, /api and /apis as the real server does", async () => {
    const d = differ();
    await d.http("GET /version", { path: "/version" });
    await d.http("GET /api", { path: "/api" }, (a) => ({ status: a.status, body: a.body }));
    const apis = await d.both((s) => s.call({ path: "/apis" }));
    const served = new Set(names(body(apis.dev).groups, "name"));
    const realGroups = body(apis.real).groups as Doc[];
    d.alike("GET /apis", apis.dev, {
      ...apis.real,
      body: { ...body(apis.real), groups: realGroups.filter((g) => served.has(String(g.name))) },
    });
    const others = await otherTestsGroups(d);
    d.ledger.expectOnlyReal(
      "groups only kube-apiserver serves",
      names(realGroups, "name")
        .filter((n) => !served.has(n) && !others.has(n))
        .sort(),
    );
  });

  it("lists each served group-version's resources as the real server does", async () => {
    const d = differ();
    const apis = await d.pair.dev.call({ path: "/apis" });
    const groupVersions = [
      "/api/v1",
      ...(body(apis).groups as Doc[]).flatMap((g) =>
        names(g.versions, "groupVersion").map((gv) => `/apis/${gv}`),
      ),
    ];
    for (const path of groupVersions) {
      const lists = await d.both((s) => s.call({ path }));
      const served = new Set(names(body(lists.dev).resources, "name"));
      const realResources = body(lists.real).resources as Doc[];
      d.alike(`GET ${path}`, lists.dev, {
        ...lists.real,
        body: { ...body(lists.real), resources: realResources.filter((r) => served.has(String(r.name))) },
      });
      const only = names(realResources, "name").filter((n) => !served.has(n));
      d.ledger.expectOnlyReal(`resources only kube-apiserver serves in ${path}`, only);
    }
    for (const path of groupVersions.filter((p) => p.startsWith("/apis/"))) {
      await d.http(`GET ${path.split("/").slice(0, 3).join("/")}`, {
        path: path.split("/").slice(0, 3).join("/"),
      });
    }
  });

  it("answers aggregated discovery (kubectl's) as the real server does", async () => {
    const d = differ();
    for (const path of ["/api", "/apis"]) {
      const lists = await d.both((s) => s.call({ path, accept: AGGREGATED }));
      const others = await otherTestsGroups(d);
      const devItems = body(lists.dev).items as Doc[];
      const groupName = (g: Doc) => String((g.metadata as Doc).name ?? "");
      const served = new Map(devItems.map((g) => [groupName(g), g]));
      const onlyReal: string[] = [];
      const realItems = (body(lists.real).items as Doc[]).flatMap((g) => {
        const dev = served.get(groupName(g));
        if (!dev) {
          if (!others.has(groupName(g))) onlyReal.push(groupName(g));
          return [];
        }
        const devResources = new Set((dev.versions as Doc[]).flatMap((v) => names(v.resources, "resource")));
        const versions = (g.versions as Doc[]).map((v) => {
          const all = v.resources as Doc[];
          for (const r of all)
            if (!devResources.has(String(r.resource))) onlyReal.push(`${groupName(g)}/${r.resource}`);
          return { ...v, resources: all.filter((r) => devResources.has(String(r.resource))) };
        });
        return [{ ...g, versions }];
      });
      d.alike(`GET ${path} (aggregated)`, lists.dev, {
        ...lists.real,
        body: { ...body(lists.real), items: realItems },
      });
      d.ledger.expectOnlyReal(`aggregated ${path}: only kube-apiserver serves`, onlyReal.sort());
    }
  });

  it("serves /openapi/v3 for the served group-versions", async () => {
    const d = differ();
    // The real server adds a new CRD's document a moment after it is Established.
    const listsCrd = (a: Answer) => Object.hasOwn(body(a).paths as object, `apis/${GROUP}/v1`);
    await waitOn(d.pair.real, "/openapi/v3", listsCrd);
    const roots = await d.both((s) => s.call({ path: "/openapi/v3" }));
    const paths = (a: Answer) => body(a).paths as Record<string, { serverRelativeURL: string }>;
    const served = Object.keys(paths(roots.dev));
    const realPaths = paths(roots.real);
    d.alike(
      "GET /openapi/v3",
      served,
      Object.keys(realPaths).filter((p) => served.includes(p)),
    );
    // The documents of groups the devcluster does not serve are the groups' listed difference.
    const groups = await d.both((s) => s.call({ path: "/apis" }));
    const servedGroups = new Set(names(body(groups.dev).groups, "name"));
    const unservedGroup = (p: string) => p.startsWith("apis/") && !servedGroups.has(p.split("/")[1]!);
    const onlyReal = Object.keys(realPaths).filter((p) => !served.includes(p) && !unservedGroup(p));
    d.ledger.expectOnlyReal("openapi/v3 paths only kube-apiserver serves", onlyReal.sort());
    expect(served.length).toBeGreaterThan(3);
    const docs = await d.http(`GET /openapi/v3/apis/${GROUP}/v1`, { path: `/openapi/v3/apis/${GROUP}/v1` });
    // What kubectl reads of the operations, held to the real server whatever their texts.
    d.alike(`GET /openapi/v3/apis/${GROUP}/v1 (operations)`, operations(docs.dev), operations(docs.real));
  });

  it("serves the CRD's kind in /openapi/v2 as the real server does", async () => {
    const d = differ();
    const docs = await d.both((s) => s.call({ path: "/openapi/v2" }));
    const pick = (a: Answer) => {
      const doc = body(a) as { definitions: Doc; paths: Doc };
      const paths = Object.fromEntries(Object.entries(doc.paths).filter(([p]) => p.includes(`/${GROUP}/`)));
      return {
        status: a.status,
        gizmo: doc.definitions[DEFINITION],
        list: doc.definitions[`${DEFINITION}List`],
        paths,
      };
    };
    d.alike("GET /openapi/v2 (the CRD's kind)", pick(docs.dev), pick(docs.real));
  });
}
