/**
 * The service API client. `createServiceApi(options)` gives one client per account with
 * a typed function set per resource; see docs/api-client.md for options and behaviour.
 */
import * as z from "zod";
import { ApiClient, type ApiClientOptions } from "./client.ts";
import { objectExists, showOne } from "./resource.ts";
import { alertSpecsApi } from "./resources/alert-specs.ts";
import { auditEntriesApi } from "./resources/audit-entries.ts";
import { cloudsApi } from "./resources/clouds.ts";
import { deploymentsApi } from "./resources/deployments.ts";
import { inputsApi } from "./resources/inputs.ts";
import { ipAddressBindingsApi } from "./resources/ip-address-bindings.ts";
import { ipAddressesApi } from "./resources/ip-addresses.ts";
import { monitoringMetricsApi } from "./resources/monitoring-metrics.ts";
import { networkGatewaysApi } from "./resources/network-gateways.ts";
import { networksApi } from "./resources/networks.ts";
import { permissionsApi } from "./resources/permissions.ts";
import { recurringVolumeAttachmentsApi } from "./resources/recurring-volume-attachments.ts";
import { resourceGroupsApi } from "./resources/resource-groups.ts";
import { routeTablesApi } from "./resources/route-tables.ts";
import { routesApi } from "./resources/routes.ts";
import { storedScriptAttachmentsApi } from "./resources/stored-script-attachments.ts";
import { storedScriptsApi } from "./resources/stored-scripts.ts";
import { subnetsApi } from "./resources/subnets.ts";
import { volumesApi } from "./resources/volumes.ts";
import { type Linked, linksSchema } from "./schemas.ts";

const linkedSchema = z.looseObject({ links: linksSchema });

/**
 * Every function of a resource set, with the errors it throws passed through `client.redact`:
 * a resource function also builds errors from an answer (a body that is not JSON quotes it), and
 * those must not carry a credential either.
 */
function redacting<T extends object>(client: ApiClient, set: T): T {
  const scrub = (error: unknown) => {
    throw client.redact(error);
  };
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(set)) {
    if (typeof value !== "function") {
      wrapped[name] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = fn(...args);
      } catch (error) {
        scrub(error);
      }
      return result instanceof Promise ? result.catch(scrub) : result;
    };
  }
  return wrapped as T;
}

export function serviceApi(client: ApiClient) {
  const api = {
    deployments: deploymentsApi(client),
    inputs: inputsApi(client),
    networks: networksApi(client),
    subnets: subnetsApi(client),
    networkGateways: networkGatewaysApi(client),
    routes: routesApi(client),
    routeTables: routeTablesApi(client),
    volumes: volumesApi(client),
    recurringVolumeAttachments: recurringVolumeAttachmentsApi(client),
    ipAddresses: ipAddressesApi(client),
    ipAddressBindings: ipAddressBindingsApi(client),
    alertSpecs: alertSpecsApi(client),
    resourceGroups: resourceGroupsApi(client),
    permissions: permissionsApi(client),
    auditEntries: auditEntriesApi(client),
    storedScriptAttachments: storedScriptAttachmentsApi(client),
    storedScripts: storedScriptsApi(client),
    clouds: cloudsApi(client),
    monitoringMetrics: monitoringMetricsApi(client),
  };
  const sets = Object.fromEntries(
    Object.entries(api).map(([name, set]) => [name, redacting(client, set)]),
  ) as typeof api;
  return {
    client,
    ...sets,
    ...redacting(client, {
      /** Whether the object an href names exists (404 or 422 ResourceNotFound: false). */
      exists: (href: string, signal?: AbortSignal) => objectExists(client, href, signal),
      /**
       * The links of the object an href names, whatever its type (a server, an instance): to
       * follow a link no resource of this client reads (a server's current instance).
       */
      linksOf: (href: string): Promise<Linked> => showOne(client, href, linkedSchema),
    }),
    close: () => client.close(),
  };
}

export type ServiceApi = ReturnType<typeof serviceApi>;

export function createServiceApi(options: ApiClientOptions): ServiceApi {
  return serviceApi(new ApiClient(options));
}

export { ALLOWED_ENDPOINTS_RULE, EndpointAllowlist } from "./allowlist.ts";
export { ApiClient, type ApiClientOptions, type CallEvent } from "./client.ts";
export { aheadOfOthers, callsGoAhead } from "./connection-gate.ts";
export {
  ApiError,
  type ApiErrorCode,
  ApiErrorCodes,
  type ApiErrorKind,
  isApiError,
  isOutcomeUnknown,
  isTerminalApiError,
} from "./errors.ts";
export { API_REDACT_PATHS } from "./logger.ts";
export { DEFAULT_RATE_LIMIT, TokenBucket } from "./rate-limiter.ts";
export { DEFAULT_RETRY } from "./retry.ts";
export { linkHref, parseTimestamp, selfHref } from "./schemas.ts";
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TRANSPORT } from "./transport.ts";
