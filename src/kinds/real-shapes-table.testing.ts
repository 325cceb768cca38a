import { alertSpecKind } from "./alert-spec/kind.ts";
import { ipAddressKind } from "./ip-address/kind.ts";
import { ipAddressBindingKind } from "./ip-address-binding/kind.ts";
import { type RealShapeCase, realRepresentation as real } from "./real-media-types.testing.ts";
import { resourceGroupKind } from "./resource-group/kind.ts";
import { storedScriptAttachmentKind } from "./stored-script-attachment/kind.ts";

/** The table kinds' cases of real-shapes.test.ts: representations built only from the real media types. */

const C = "/api/clouds/1";

export const tableKindCases: RealShapeCase[] = [
  {
    reason:
      "IpAddress: network and deployment are its links, the cloud its collection's (it has no cloud link)",
    kind: ipAddressKind,
    href: `${C}/ip_addresses/4`,
    desired: {
      cloudHref: C,
      name: "web-ip",
      domain: "vpc",
      networkHref: "/api/networks/1",
      deploymentHref: "/api/deployments/1",
      fields: { deploymentHref: "deploymentRef" },
    },
    paths: {
      [`${C}/ip_addresses/4`]: real(
        "ip_address",
        { name: "web-ip", address: "198.18.0.4", domain: "vpc", created_at: null, updated_at: null },
        {
          self: `${C}/ip_addresses/4`,
          network: "/api/networks/1",
          deployment: "/api/deployments/2",
          ip_address_bindings: `${C}/ip_addresses/4/ip_address_bindings`,
        },
      ),
    },
    atProvider: {
      cloudHref: C,
      address: "198.18.0.4",
      networkHref: "/api/networks/1",
      deploymentHref: "/api/deployments/2",
    },
    diff: ["deploymentRef"],
  },
  {
    reason: "ResourceGroup: cloud and deployment are its links; another deployment is drift",
    kind: resourceGroupKind,
    href: "/api/resource_groups/3",
    desired: { cloudHref: C, name: "rg", deploymentHref: "/api/deployments/1", fields: {} },
    paths: {
      "/api/resource_groups/3": real(
        "resource_group",
        { name: "rg", description: null, state: "available", resource_uid: "rg-3", actions: [] },
        { self: "/api/resource_groups/3", cloud: C, deployment: "/api/deployments/2" },
      ),
    },
    atProvider: { cloudHref: C, state: "available", deploymentHref: "/api/deployments/2" },
    diff: ["deploymentHref"],
  },
  {
    reason:
      "IpAddressBinding: address and instance are its links, the ports attributes, the cloud its collection's",
    kind: ipAddressBindingKind,
    href: `${C}/ip_address_bindings/2`,
    desired: {
      cloudHref: C,
      publicIpAddressHref: `${C}/ip_addresses/4`,
      instanceHref: `${C}/instances/1`,
      publicPort: 443,
      protocol: "TCP",
      fields: {},
    },
    paths: {
      [`${C}/ip_address_bindings/2`]: real(
        "ip_address_binding",
        { created_at: null, recurring: true, public_port: 443, private_port: "8443", protocol: "TCP" },
        {
          self: `${C}/ip_address_bindings/2`,
          ip_address: `${C}/ip_addresses/4`,
          instance: `${C}/instances/3`,
        },
      ),
    },
    atProvider: {
      cloudHref: C,
      publicIpAddressHref: `${C}/ip_addresses/4`,
      instanceHref: `${C}/instances/3`,
      publicPort: 443,
      privatePort: 8443,
      recurring: true,
    },
    diff: ["instanceHref", "privatePort"],
  },
  {
    reason:
      "AlertSpec: the subject is its link, every other field an attribute; a vote instead of an escalation is drift",
    kind: alertSpecKind,
    href: "/api/alert_specs/5",
    desired: {
      subjectHref: "/api/servers/1",
      name: "cpu",
      file: "cpu-0/cpu-idle",
      variable: "value",
      condition: "<",
      threshold: "10",
      duration: 5,
      escalationName: "critical",
      fields: {},
    },
    paths: {
      "/api/alert_specs/5": real(
        "alert_spec",
        {
          name: "cpu",
          description: null,
          created_at: null,
          updated_at: null,
          duration: 5,
          threshold: "10",
          condition: "<",
          file: "cpu-0/cpu-idle",
          variable: "value",
          escalation_name: null,
          vote_tag: "web",
          vote_type: "grow",
          actions: [],
        },
        { self: "/api/alert_specs/5", subject: "/api/servers/1" },
      ),
    },
    atProvider: { subjectHref: "/api/servers/1", duration: 5, voteTag: "web", voteType: "grow" },
    diff: ["escalationName", "voteTag", "voteType"],
  },
  {
    reason:
      "StoredScriptAttachment: the script is its link; the content is compared through the digest, which status never shows",
    kind: storedScriptAttachmentKind,
    href: "/api/stored_scripts/1/attachments/5",
    desired: {
      storedScriptHref: "/api/stored_scripts/1",
      filename: "run.sh",
      // The service shows the digest of empty content: this content differs.
      content: Buffer.from("echo changed\n"),
      fields: {},
    },
    paths: {
      "/api/stored_scripts/1/attachments/5": real(
        "stored_script_attachment",
        {
          id: "5",
          filename: "run.sh",
          created_at: "2015/04/08 18:46:02 +0000",
          updated_at: "2015/04/08 18:46:02 +0000",
          digest: "d41d8cd98f00b204e9800998ecf8427e",
          size: "0",
          download_url: "https://us-3.svc.test/downloads/1?signature=x",
        },
        { self: "/api/stored_scripts/1/attachments/5", stored_script: "/api/stored_scripts/1" },
      ),
    },
    atProvider: {
      storedScriptHref: "/api/stored_scripts/1",
      filename: "run.sh",
      size: 0,
      updatedAt: "2015/04/08 18:46:02 +0000",
    },
    diff: ["contentFrom"],
  },
];
