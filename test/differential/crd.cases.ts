import { expect, it } from "vitest";
import type { Differ } from "./differ.ts";
import type { Answer, Endpoint } from "./endpoints.ts";
import { CRD_NAME, CRD_PATH, GIZMO_CRD } from "./fixtures.ts";

type Doc = Record<string, unknown>;

/** Polls `read` on a server until `done` says so (bounded). */
export async function waitOn(server: Endpoint, path: string, done: (a: Answer) => boolean): Promise<Answer> {
  for (let i = 0; i < 100; i++) {
    const answer = await server.call({ path });
    if (done(answer)) return answer;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${server.name}: ${path} never got there`);
}

const established = (a: Answer) =>
  ((a.body as Doc)?.status as { conditions?: Doc[] } | undefined)?.conditions?.some(
    (c) => c.type === "Established" && c.status === "True",
  ) === true;

/** The run's namespace and the suite's CRD, installed until Established, as both servers answer. */
export function crdCases(differ: () => Differ): void {
  it("creates a namespace and a CRD, which becomes Established", async () => {
    const d = differ();
    await d.http("POST namespace", {
      method: "POST",
      path: "/api/v1/namespaces",
      body: { apiVersion: "v1", kind: "Namespace", metadata: { name: d.namespace } },
    });
    await d.http("POST customresourcedefinition", { method: "POST", path: CRD_PATH, body: GIZMO_CRD });
    const crds = await d.both((s) => waitOn(s, `${CRD_PATH}/${CRD_NAME}`, established));
    d.alike("GET customresourcedefinition once Established", crds.dev, crds.real);
    expect(crds.dev.status).toBe(200);
    await d.kubectl("wait --for=condition=Established", [
      "wait",
      "--for=condition=Established",
      `crd/${CRD_NAME}`,
      "--timeout=20s",
    ]);
  });
}

/** The suite's CRD deleted: its instances go first (the cleanup finalizer), then it does. */
export function crdDeletionCases(differ: () => Differ): void {
  it("deletes the CRD, which goes once its instances are gone", async () => {
    const d = differ();
    await d.http("DELETE customresourcedefinition", { method: "DELETE", path: `${CRD_PATH}/${CRD_NAME}` });
    const gone = await d.both((s) => waitOn(s, `${CRD_PATH}/${CRD_NAME}`, (a) => a.status === 404));
    d.alike("GET customresourcedefinition once deleted", gone.dev, gone.real);
  });
}
