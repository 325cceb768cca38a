/**
 * The service API client. `createServiceApi(options)` gives one client per account with
 * a typed function set per resource; see docs/api-client.md for options and behaviour.
 */
import { ApiClient, type ApiClientOptions } from "./client.ts";
import { objectExists } from "./resource.ts";
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
import { routesApi } from "./resources/routes.ts";
import { storedScriptAttachmentsApi } from "./resources/stored-script-attachments.ts";
import { subnetsApi } from "./resources/subnets.ts";
import { volumesApi } from "./resources/volumes.ts";

export function serviceApi(client: ApiClient) {
  return {
    client,
    deployments: deploymentsApi(client),
    inputs: inputsApi(client),
    networks: networksApi(client),
    subnets: subnetsApi(client),
    networkGateways: networkGatewaysApi(client),
    routes: routesApi(client),
    volumes: volumesApi(client),
    recurringVolumeAttachments: recurringVolumeAttachmentsApi(client),
    ipAddresses: ipAddressesApi(client),
    ipAddressBindings: ipAddressBindingsApi(client),
    alertSpecs: alertSpecsApi(client),
    resourceGroups: resourceGroupsApi(client),
    permissions: permissionsApi(client),
    auditEntries: auditEntriesApi(client),
    storedScriptAttachments: storedScriptAttachmentsApi(client),
    clouds: cloudsApi(client),
    monitoringMetrics: monitoringMetricsApi(client),
    /** Whether the object an href names exists (404 or 422 ResourceNotFound: false). */
    exists: (href: string, signal?: AbortSignal) => objectExists(client, href, signal),
    close: () => client.close(),
  };
}

export type ServiceApi = ReturnType<typeof serviceApi>;

export function createServiceApi(options: ApiClientOptions): ServiceApi {
  return serviceApi(new ApiClient(options));
}

export { ApiClient, type ApiClientOptions, type CallEvent } from "./client.ts";
export { ApiError, type ApiErrorCode, ApiErrorCodes, type ApiErrorKind, isApiError } from "./errors.ts";
export { API_REDACT_PATHS } from "./logger.ts";
export { DEFAULT_RATE_LIMIT, TokenBucket } from "./rate-limiter.ts";
export { DEFAULT_RETRY } from "./retry.ts";
export { linkHref, parseTimestamp, selfHref } from "./schemas.ts";
export { DEFAULT_TRANSPORT } from "./transport.ts";
