import type { AnyManagedKind, CrdSource } from "../runtime/sdk/index.ts";
import { managedStatusSchema } from "../runtime/sdk/index.ts";
import { accountDefinition } from "./account/schema.ts";
import { alertSpecKind } from "./alert-spec/kind.ts";
import { deploymentKind } from "./deployment/kind.ts";
import { ipAddressKind } from "./ip-address/kind.ts";
import { ipAddressBindingKind } from "./ip-address-binding/kind.ts";
import { networkKind } from "./network/kind.ts";
import { networkGatewayKind } from "./network-gateway/kind.ts";
import { permissionKind } from "./permission/kind.ts";
import { recurringVolumeAttachmentKind } from "./recurring-volume-attachment/kind.ts";
import { resourceGroupKind } from "./resource-group/kind.ts";
import { routeKind } from "./route/kind.ts";
import { routeTableKind } from "./route-table/kind.ts";
import { storedScriptAttachmentKind } from "./stored-script-attachment/kind.ts";
import { subnetKind } from "./subnet/kind.ts";
import { volumeKind } from "./volume/kind.ts";

/** Every managed kind, in dependency order (parents first). Adding a kind = one line here. */
export const managedKinds: AnyManagedKind[] = [
  deploymentKind,
  resourceGroupKind,
  networkKind,
  routeTableKind,
  subnetKind,
  networkGatewayKind,
  routeKind,
  ipAddressKind,
  ipAddressBindingKind,
  alertSpecKind,
  volumeKind,
  recurringVolumeAttachmentKind,
  storedScriptAttachmentKind,
  permissionKind,
];

/** Every CRD the operator serves: Account plus the managed kinds. */
export function crdSources(kinds: AnyManagedKind[] = managedKinds): CrdSource[] {
  return [
    accountDefinition,
    ...kinds.map((k) => ({
      kind: k.kind,
      plural: k.plural,
      singular: k.singular,
      shortNames: k.shortNames,
      description: k.description,
      spec: k.schema,
      status: managedStatusSchema,
      printerColumns: k.printerColumns,
    })),
  ];
}
