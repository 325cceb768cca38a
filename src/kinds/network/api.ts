import type { ServiceApi } from "../../api/index.ts";

/** The parts of the service client the network kinds use (a fake in unit tests). */
export type NetClient = Pick<
  ServiceApi,
  "networks" | "subnets" | "networkGateways" | "routes" | "routeTables" | "clouds"
>;
