import type { ResourceModule, SeedData } from "../simulator/resource.ts";
import { defaultSeed, validateSeed } from "../simulator/seed.ts";

/** The server template whose inputs a deployment created in the playground starts with: Base Linux. */
const NEW_DEPLOYMENT_TEMPLATE = "1";

/**
 * The playground simulator's first seed: the default one, with server template 1 (Base Linux:
 * APP_ENV, NTP_SERVERS, SYSLOG_HOST) marked for new deployments, so that the sample Deployment
 * has the inputs its spec sets and editing them changes the service (the service ignores a
 * name a deployment lacks). A state saved with --state-dir is loaded as it is instead.
 */
export function playgroundSeed(resources: ResourceModule[]): SeedData {
  const seed = validateSeed(defaultSeed(resources), resources, "default seed");
  seed.server_templates = (seed.server_templates ?? []).map((t) =>
    t.id === NEW_DEPLOYMENT_TEMPLATE ? { ...t, for_new_deployments: true } : t,
  );
  return seed;
}
