// The service side of the floor bench (bench/floor.ts): the simulator in a process of its own at
// latency 0, and the service client as the operator makes it for an Account (createServiceApi
// with the default transport: its own undici Agent, 16 connections, keep-alive), the rate
// limiter on but far above the load.
import { createServiceApi, type ServiceApi } from "../../src/api/index.ts";
import { type Service, startService } from "./scale-service.ts";

/** The service calls of a created resource: its create, a read of it, its audit entry. */
export type ServiceCall = "show" | "create" | "auditCreate";

export interface ServiceSide {
  call(kind: ServiceCall, i: number): Promise<void>;
  close(): Promise<void>;
}

/** What the audit trail sends for a created Deployment (summary, and the fields as detail). */
const AUDIT_DETAIL = [
  "created by svc-operator (floor/floor-0)",
  "name: floor-0",
  "description: proof",
  "server_tag_scope: deployment",
  "resource_group_href: (none)",
].join("\n");

export async function startServiceSide(): Promise<ServiceSide> {
  const service: Service = await startService();
  const api: ServiceApi = createServiceApi({
    endpoint: service.url,
    accountId: 1,
    auth: { type: "oauth", refreshToken: "dev-refresh-token" },
    rateLimit: { ratePerSecond: 1e9, burst: 1e9 },
  });
  const close = async () => {
    await api.close();
    await service.close();
  };
  try {
    // One object to read and to audit; its create also takes the OAuth token.
    const href = await api.deployments.create({ name: "floor-seed", description: "proof" });
    const run = Date.now().toString(36);
    return {
      call: async (kind, i) => {
        switch (kind) {
          case "show":
            await api.deployments.show(href);
            return;
          case "create":
            await api.deployments.create({ name: `floor-${run}-${i}`, description: "proof" });
            return;
          case "auditCreate":
            await api.auditEntries.create({ auditee_href: href, summary: "created", detail: AUDIT_DETAIL });
            return;
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
