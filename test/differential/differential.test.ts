import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controlPlane } from "../support/control-plane.testing.ts";
import { applyCases } from "./apply.cases.ts";
import { crdCases, crdDeletionCases } from "./crd.cases.ts";
import { Differ } from "./differ.ts";
import { discoveryCases } from "./discovery.cases.ts";
import { type Pair, startPair } from "./endpoints.ts";
import { errorCases } from "./errors.cases.ts";
import { eventAndLeaseCases } from "./events-leases.cases.ts";
import { kubectlCases } from "./kubectl.cases.ts";
import { Ledger, listedDifferences } from "./ledger.ts";
import { objectCases } from "./objects.cases.ts";
import { watchCases } from "./watch.cases.ts";

/**
 * The devcluster held to kube-apiserver: the same requests, raw and through the real kubectl,
 * to a devcluster and to this worker's real kube-apiserver (KUBEBUILDER_ASSETS), their answers
 * compared once what must differ is normalised. docs/devcluster.md lists the differences that
 * stay; the suite meets exactly those.
 */

const plane = controlPlane();
const listed = listedDifferences();
const ledger = new Ledger(listed);
let pair: Pair | undefined;
let differ: Differ;

describe.runIf(plane !== null)("the devcluster held to kube-apiserver", () => {
  beforeAll(async () => {
    pair = await startPair(plane!);
    differ = new Differ(pair, ledger, `dx-${Date.now().toString(36)}`);
  });
  afterAll(async () => {
    await pair?.close();
    const { compared, kubectl, alike } = ledger;
    console.log(
      `differential: ${compared} answers compared (${compared - kubectl} raw HTTP, ${kubectl} kubectl commands), ${alike} alike`,
    );
  });

  describe("CRD install", () => crdCases(() => differ));
  describe("discovery and OpenAPI", () => discoveryCases(() => differ));
  describe("objects", () => objectCases(() => differ));
  describe("server-side apply", () => applyCases(() => differ));
  describe("errors", () => errorCases(() => differ));
  describe("watch", () => watchCases(() => differ));
  describe("Events and Leases", () => eventAndLeaseCases(() => differ));
  describe("kubectl", () => kubectlCases(() => differ));
  describe("CRD deletion", () => crdDeletionCases(() => differ));

  it("meets exactly the differences docs/devcluster.md lists", () => {
    expect([...ledger.met].sort()).toEqual([...listed].sort());
  });
});
