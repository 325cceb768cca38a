import type { ServiceApi } from "../api/index.ts";
import type { ClusterReader } from "../inventory/index.ts";
import {
  AccessError,
  type AccountAccess,
  accessFromCluster,
  type CallCounter,
  Inventory,
  readOnlyServiceApi,
} from "../inventory/index.ts";
import { accountCredentials } from "../kinds/account/kind.ts";
import { accountSpecSchema } from "../kinds/account/schema.ts";

/** A service client for the manifests of one Account, and the listings made with it. */
export interface PlanAccount {
  client: ServiceApi;
  inventory: Inventory;
  endpoint: string;
}

/**
 * The accounts the manifests name (`spec.accountRef` in their namespace), one read-only client
 * each: the one of `--endpoint` and the environment for all of them, or each Account as the
 * manifests give it (else as the cluster holds it) with its Secret read from the cluster.
 */
export class PlanAccounts {
  private readonly clients = new Map<string, Promise<PlanAccount | { problem: string }>>();
  private readonly all: PlanAccount[] = [];

  private readonly o: {
    /** `--endpoint`, `--account-id` and the environment: every Account is this one. */
    fixed?: AccountAccess;
    reader?: ClusterReader;
    /** Account manifests of the input, by `namespace/name`. */
    manifests: Map<string, Record<string, unknown>>;
    counter: CallCounter;
  };

  constructor(options: PlanAccounts["o"]) {
    this.o = options;
  }

  /** The account's client, or why there is none (the manifests naming it are blocked). */
  get(namespace: string, name: string): Promise<PlanAccount | { problem: string }> {
    const key = this.o.fixed ? "" : `${namespace}/${name}`;
    let found = this.clients.get(key);
    if (!found) {
      found = this.open(namespace, name).catch((error: unknown) => ({
        problem: `spec.accountRef: ${(error as Error).message}`,
      }));
      this.clients.set(key, found);
    }
    return found;
  }

  private async open(namespace: string, name: string): Promise<PlanAccount> {
    const access = this.o.fixed ?? (await this.fromManifests(namespace, name));
    const client = readOnlyServiceApi(
      { endpoint: access.endpoint, accountId: access.accountId, auth: access.auth },
      this.o.counter,
    );
    const account = { client, inventory: new Inventory(client), endpoint: access.endpoint };
    this.all.push(account);
    return account;
  }

  private async fromManifests(namespace: string, name: string): Promise<AccountAccess> {
    const reader = this.o.reader;
    if (!reader) throw new AccessError(`Account ${name}: no cluster to read its Secret from`);
    const manifest = this.o.manifests.get(`${namespace}/${name}`);
    if (!manifest) return accessFromCluster(reader, namespace, name);
    const parsed = accountSpecSchema.safeParse(manifest.spec);
    if (!parsed.success)
      throw new AccessError(`Account ${namespace}/${name} in the manifests has an invalid spec`);
    const spec = parsed.data;
    const auth = await accountCredentials(spec, (secret) => reader.secret(namespace, secret)).catch(
      (error) => {
        throw new AccessError(`Account ${namespace}/${name}: ${(error as Error).message}`);
      },
    );
    return { endpoint: spec.endpoint, accountId: spec.accountId, auth, spec, secret: { name: "", keys: [] } };
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((a) => a.client.close()));
  }
}
