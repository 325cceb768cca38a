import type { CelRule } from "../../runtime/sdk/index.ts";

/** The next-hop fields of a route spec the rules read. */
export interface NextHopFields {
  nextHopType: string;
  nextHopHref?: string;
  nextHopGatewayRef?: { name: string };
  nextHopIp?: string;
  nextHopUrl?: string;
}

/**
 * The spec's conditional rules for the next hop (4.4, rules 1-3), written once: as CEL for
 * admission and as a check the reconciler runs before any call (a CRD installed without
 * validation, or an old apiserver, must not let a bad route reach the service).
 */
export interface NextHopRule {
  field: keyof NextHopFields;
  cel: string;
  message: string;
  holds(spec: NextHopFields): boolean;
}

const HREF_TYPES = ["instance", "network_interface", "network_gateway"];

export const NEXT_HOP_RULES: NextHopRule[] = [
  {
    field: "nextHopHref",
    cel: "!(self.nextHopType in ['instance', 'network_interface']) || has(self.nextHopHref)",
    message: "nextHopHref is required when nextHopType is instance or network_interface",
    holds: (s) => !["instance", "network_interface"].includes(s.nextHopType) || s.nextHopHref !== undefined,
  },
  {
    field: "nextHopGatewayRef",
    cel: "self.nextHopType != 'network_gateway' || (has(self.nextHopHref) ? 1 : 0) + (has(self.nextHopGatewayRef) ? 1 : 0) == 1",
    message:
      "exactly one of nextHopHref or nextHopGatewayRef is required when nextHopType is network_gateway",
    holds: (s) =>
      s.nextHopType !== "network_gateway" ||
      (s.nextHopHref !== undefined ? 1 : 0) + (s.nextHopGatewayRef !== undefined ? 1 : 0) === 1,
  },
  {
    field: "nextHopHref",
    cel: "!has(self.nextHopHref) || self.nextHopType in ['instance', 'network_interface', 'network_gateway']",
    message: "nextHopHref is allowed only when nextHopType is instance, network_interface or network_gateway",
    holds: (s) => s.nextHopHref === undefined || HREF_TYPES.includes(s.nextHopType),
  },
  {
    field: "nextHopGatewayRef",
    cel: "!has(self.nextHopGatewayRef) || self.nextHopType == 'network_gateway'",
    message: "nextHopGatewayRef is allowed only when nextHopType is network_gateway",
    holds: (s) => s.nextHopGatewayRef === undefined || s.nextHopType === "network_gateway",
  },
  {
    field: "nextHopIp",
    cel: "(self.nextHopType == 'ip_string') == has(self.nextHopIp)",
    message: "nextHopIp is required when nextHopType is ip_string and not allowed otherwise",
    holds: (s) => (s.nextHopType === "ip_string") === (s.nextHopIp !== undefined),
  },
  {
    field: "nextHopUrl",
    cel: "(self.nextHopType == 'url') == has(self.nextHopUrl)",
    message: "nextHopUrl is required when nextHopType is url and not allowed otherwise",
    holds: (s) => (s.nextHopType === "url") === (s.nextHopUrl !== undefined),
  },
];

export const nextHopCelRules: CelRule[] = NEXT_HOP_RULES.map((r) => ({
  rule: r.cel,
  message: r.message,
  fieldPath: `.${r.field}`,
}));

/** The rules a spec breaks (empty when it is valid). */
export function brokenNextHopRules(spec: NextHopFields): NextHopRule[] {
  return NEXT_HOP_RULES.filter((r) => !r.holds(spec));
}
