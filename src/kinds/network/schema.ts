import * as z from "zod";
import { exactlyOne, href, immutable, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cloudByName, cloudChoice, deploymentChoice, serviceName } from "../shared/spec-fields.ts";
import { IPV4_CIDR } from "./cidr.ts";

export { cloudByName };

export const cidrBlock = (what: string) =>
  z.string().regex(IPV4_CIDR, "must be an IPv4 CIDR block such as 10.10.0.0/16").describe(what);

/** Fields the service takes only on create: changing them needs a new network. */
export const NETWORK_CREATE_ONLY = ["cloudHref", "cloud", "cidrBlock", "instanceTenancy"] as const;

export const networkSpecSchema = managedSpec(
  {
    ...cloudChoice("the cloud the network lives in"),
    name: serviceName("network"),
    description: z.string().max(4096).optional().describe("Description of the network; empty clears it."),
    cidrBlock: cidrBlock(
      "IPv4 CIDR block of the network (required by some clouds, e.g. amazon). Create-only.",
    ).optional(),
    instanceTenancy: z
      .enum(["default", "dedicated"])
      .optional()
      .describe("default lets instances decide; dedicated forces dedicated launch. Create-only."),
    ...deploymentChoice("the network"),
    routeTableHref: href("a route table of this network to make its default route table").optional(),
    defaultRouteTableRef: ref(
      "RouteTable",
      "A RouteTable custom resource of this network to make its default route table. Set by an update once the " +
        "network exists and the RouteTable (which names this network) is Ready; the network is Ready before that.",
    ).optional(),
  },
  [
    { ...exactlyOne(["cloudHref", "cloud"]), fieldPath: ".cloudHref" },
    { ...exactlyOne(["deploymentRef", "deploymentHref"], false), fieldPath: ".deploymentRef" },
    { ...exactlyOne(["defaultRouteTableRef", "routeTableHref"], false), fieldPath: ".defaultRouteTableRef" },
    ...NETWORK_CREATE_ONLY.map(immutable),
  ],
  "Desired state of the network.",
);

export type NetworkSpec = z.output<typeof networkSpecSchema>;
