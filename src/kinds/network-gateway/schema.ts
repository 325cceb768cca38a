import * as z from "zod";
import { exactlyOne, href, immutable, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cloudChoice, serviceName } from "../shared/spec-fields.ts";

/** Fields the service takes only on create. */
export const GATEWAY_CREATE_ONLY = ["cloudHref", "cloud", "type"] as const;

export const networkGatewaySpecSchema = managedSpec(
  {
    ...cloudChoice("the cloud the gateway lives in"),
    name: serviceName("gateway"),
    type: z.enum(["vpn", "internet"]).describe("Gateway type: vpn or internet. Immutable."),
    description: z.string().max(4096).optional().describe("Description of the gateway; empty clears it."),
    networkRef: ref(
      "Network",
      "The Network custom resource to attach the gateway to; waits until it is Ready. Removing it detaches the gateway.",
    ).optional(),
    networkHref: href("a network to attach the gateway to (removing it detaches the gateway)").optional(),
  },
  [
    { ...exactlyOne(["cloudHref", "cloud"]), fieldPath: ".cloudHref" },
    { ...exactlyOne(["networkRef", "networkHref"], false), fieldPath: ".networkRef" },
    ...GATEWAY_CREATE_ONLY.map(immutable),
  ],
  "Desired state of the network gateway.",
);

export type NetworkGatewaySpec = z.output<typeof networkGatewaySpecSchema>;
