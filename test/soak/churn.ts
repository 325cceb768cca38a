// Churn over the mixed set (test/proof/mixed.ts), shared by `npm run soak` and the in-suite map
// hygiene test: each round touches about 1% of the resources — whole units deleted (every kind of
// a unit at once, as `kubectl delete -f` or a GitOps prune would; the operator orders them),
// units whose deletion finished recreated under the same names (new uids), and descriptions
// changed on the kinds that update them in place.
import * as k8s from "@kubernetes/client-node";
import { GROUP, VERSION } from "../../src/runtime/sdk/index.ts";
import { type Manifest, PLURAL } from "../proof/mixed.ts";

/** Kinds whose `description` the service updates in place (Volume's is create-only). */
const DESCRIBED = new Set(["Deployment", "Network", "Subnet", "NetworkGateway", "Route"]);

export interface ChurnOptions {
  custom: k8s.CustomObjectsApi;
  namespace: string;
  set: Manifest[];
  /** Resources touched per round (default 1% of the set, at least 1). */
  perRound?: number;
  /** Units being deleted at most at once (default 3). */
  maxDeleting?: number;
  random?: () => number;
}

export interface RoundReport {
  changed: number;
  deleted: number;
  recreated: number;
}

/** The unit of a manifest of the mixed set: `s12-net` -> `s12`. */
const unitOf = (m: Manifest) => m.name.slice(0, m.name.lastIndexOf("-"));

export class Churn {
  private readonly o: ChurnOptions;
  private readonly units = new Map<string, Manifest[]>();
  /** Units deleted and not yet recreated. */
  private readonly deleting = new Set<string>();
  private readonly random: () => number;
  private round = 0;

  constructor(options: ChurnOptions) {
    this.o = options;
    this.random = options.random ?? Math.random;
    for (const m of options.set) {
      const unit = unitOf(m);
      this.units.set(unit, [...(this.units.get(unit) ?? []), m]);
    }
  }

  /** Units deleted and not recreated yet. */
  get deletingUnits(): number {
    return this.deleting.size;
  }

  /** Resources of the set that exist now or are being created (deleted units left out). */
  get liveResources(): number {
    let n = 0;
    for (const [unit, manifests] of this.units) if (!this.deleting.has(unit)) n += manifests.length;
    return n;
  }

  /** One round: recreate the units whose deletion finished, delete one, change descriptions. */
  async next(): Promise<RoundReport> {
    const round = ++this.round;
    const budget = this.o.perRound ?? Math.max(1, Math.round(this.o.set.length / 100));
    const report: RoundReport = { changed: 0, deleted: 0, recreated: 0 };
    for (const unit of [...this.deleting]) {
      const manifests = this.units.get(unit)!;
      if (!(await this.allGone(manifests))) continue;
      // Parents first, as the set lists them: each child then finds its references at once.
      for (const m of manifests) await this.apply(m);
      this.deleting.delete(unit);
      report.recreated += manifests.length;
    }
    const deletable = [...this.units.keys()].filter(
      (u) => !this.deleting.has(u) && !this.units.get(u)!.some((m) => m.kind === "Permission"),
    );
    // A unit deleted in a round that recreated none: the round stays near its budget.
    if (report.recreated === 0 && this.deleting.size < (this.o.maxDeleting ?? 3) && deletable.length > 0) {
      // A user's Permissions order themselves (observer last): units holding one are only changed.
      const unit = deletable[Math.floor(this.random() * deletable.length)]!;
      const manifests = this.units.get(unit)!;
      this.deleting.add(unit);
      await Promise.all(manifests.map((m) => this.remove(m)));
      report.deleted += manifests.length;
    }
    const described = [...this.units]
      .filter(([u]) => !this.deleting.has(u))
      .flatMap(([, ms]) => ms.filter((m) => DESCRIBED.has(m.kind)));
    // At least half the budget is spec changes, whatever the units took.
    const changes = Math.max(Math.ceil(budget / 2), budget - report.deleted - report.recreated);
    for (let i = 0; i < changes && described.length > 0; i++) {
      const m = described[Math.floor(this.random() * described.length)]!;
      await this.describe(m, `churn round ${round}`);
      report.changed++;
    }
    return report;
  }

  /** Whether every unit being deleted is gone from the cluster (the operator let all of it go). */
  async deletionsDone(): Promise<boolean> {
    for (const unit of this.deleting) if (!(await this.allGone(this.units.get(unit)!))) return false;
    return true;
  }

  private path(m: Manifest) {
    return { group: GROUP, version: VERSION, namespace: this.o.namespace, plural: PLURAL[m.kind]! };
  }

  private async allGone(manifests: Manifest[]): Promise<boolean> {
    for (const m of manifests) {
      try {
        await this.o.custom.getNamespacedCustomObject({ ...this.path(m), name: m.name });
        return false;
      } catch (error) {
        if (!(error instanceof k8s.ApiException && error.code === 404)) throw error;
      }
    }
    return true;
  }

  private async apply(m: Manifest): Promise<void> {
    await this.o.custom.createNamespacedCustomObject({
      ...this.path(m),
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: m.kind, metadata: { name: m.name }, spec: m.spec },
    });
  }

  private async remove(m: Manifest): Promise<void> {
    try {
      await this.o.custom.deleteNamespacedCustomObject({ ...this.path(m), name: m.name });
    } catch (error) {
      if (!(error instanceof k8s.ApiException && error.code === 404)) throw error;
    }
  }

  private async describe(m: Manifest, description: string): Promise<void> {
    await this.o.custom.patchNamespacedCustomObject(
      { ...this.path(m), name: m.name, body: { spec: { description } } },
      k8s.setHeaderOptions("Content-Type", "application/merge-patch+json"),
    );
  }
}
