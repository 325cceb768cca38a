import { createHash } from "node:crypto";
import { compareVersions } from "./crd.ts";
import type { Registry } from "./registry.ts";
import { apiVersionOf, type ResourceType } from "./types.ts";

/** The legacy discovery documents (what kubectl and client-node read). */
export const SERVER_VERSION = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-devcluster",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-01-01T00:00:00Z",
  goVersion: "go1.23.0",
  compiler: "gc",
  platform: "linux/amd64",
};

/**
 * Where a group stands in /apis: the aggregator sorts groups by their APIService's group priority
 * (highest first), then by name. These are kube-apiserver's for the groups served here; a CRD's
 * group gets 1000. kubectl resolves a resource two groups share by this order.
 */
const GROUP_PRIORITY: Record<string, number> = {
  "events.k8s.io": 17750,
  "apiextensions.k8s.io": 16700,
  "coordination.k8s.io": 16500,
};
const CRD_GROUP_PRIORITY = 1000;

function byPriority(a: string, b: string): number {
  const priority = (g: string) => GROUP_PRIORITY[g] ?? CRD_GROUP_PRIORITY;
  return priority(b) - priority(a) || byName(a, b);
}

/** Discovery's storageVersionHash: the first 8 bytes of sha256("<group>/<version>/<Kind>"), base64. */
function storageVersionHash(type: ResourceType): string {
  const [group, version] = type.storageVersion.includes("/")
    ? type.storageVersion.split("/")
    : ["", type.storageVersion];
  const digest = createHash("sha256").update(`${group}/${version}/${type.kind}`).digest();
  return digest.subarray(0, 8).toString("base64");
}

export function apiVersions(serverAddress: string): object {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

function groupDocument(name: string, versions: string[]): object {
  const sorted = [...versions].sort(compareVersions);
  const entries = sorted.map((version) => ({ groupVersion: apiVersionOf(name, version), version }));
  return { name, versions: entries, preferredVersion: entries[0] };
}

/** The groups other than core, in the order /apis lists them. */
function namedGroups(registry: Registry): [string, string[]][] {
  return [...registry.groups()].filter(([name]) => name !== "").sort(([a], [b]) => byPriority(a, b));
}

export function groupList(registry: Registry): object {
  const groups = namedGroups(registry).map(([name, versions]) => groupDocument(name, versions));
  return { kind: "APIGroupList", apiVersion: "v1", groups };
}

export function group(registry: Registry, name: string): object | undefined {
  const versions = registry.groups().get(name);
  if (!versions || name === "") return undefined;
  return { kind: "APIGroup", apiVersion: "v1", ...groupDocument(name, versions) };
}

/** Go's string order (bytes), which kube-apiserver sorts discovery by; localeCompare is not it. */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The types served at group/version, sorted by plural: the apiserver installs a group-version's
 * storage paths sorted (so its APIResourceList is), and sorts a CRD group's aggregated discovery
 * by resource.
 */
function typesAt(registry: Registry, groupName: string, version: string): ResourceType[] {
  return registry
    .all()
    .filter((t) => t.group === groupName && t.versions.includes(version))
    .sort((a, b) => byName(a.resource, b.resource));
}

const sortedSubresources = (type: ResourceType) => [...type.subresources].sort(byName);

function resourceEntries(type: ResourceType): object[] {
  const main: Record<string, unknown> = {
    name: type.resource,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
  };
  if (type.shortNames.length > 0) main.shortNames = type.shortNames;
  if (type.categories.length > 0) main.categories = type.categories;
  main.storageVersionHash = storageVersionHash(type);
  const subs = sortedSubresources(type).map((sub) => ({
    name: `${type.resource}/${sub}`,
    singularName: "",
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: sub === "finalize" ? ["update"] : ["get", "patch", "update"],
  }));
  return [main, ...subs];
}

export function resourceList(registry: Registry, groupName: string, version: string): object | undefined {
  const types = typesAt(registry, groupName, version);
  if (types.length === 0) return undefined;
  const resources = types.flatMap(resourceEntries);
  const groupVersion = apiVersionOf(groupName, version);
  // The real server's /api/v1 document carries no apiVersion (a quirk of its legacy handler).
  if (groupName === "") return { kind: "APIResourceList", groupVersion, resources };
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion, resources };
}

/** The aggregated discovery media type (apidiscovery.k8s.io/v2) kubectl asks for first. */
export const AGGREGATED_DISCOVERY = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

export function wantsAggregated(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(",").some((part) => {
    const params = part.split(";").map((p) => p.trim());
    return (
      params.includes("as=APIGroupDiscoveryList") &&
      params.includes("g=apidiscovery.k8s.io") &&
      params.includes("v=v2")
    );
  });
}

function aggregatedResource(type: ResourceType, version: string): object {
  // Built-in resources leave their own group and version out; CRDs' name them.
  const responseKind = type.custom
    ? { group: type.group, version, kind: type.kind }
    : { group: "", version: "", kind: type.kind };
  const entry: Record<string, unknown> = {
    resource: type.resource,
    responseKind,
    scope: type.namespaced ? "Namespaced" : "Cluster",
    singularResource: type.singular,
    verbs: type.verbs,
  };
  if (type.shortNames.length > 0) entry.shortNames = type.shortNames;
  if (type.categories.length > 0) entry.categories = type.categories;
  if (type.subresources.length > 0) {
    entry.subresources = sortedSubresources(type).map((sub) => ({
      subresource: sub,
      responseKind,
      verbs: sub === "finalize" ? ["update"] : ["get", "patch", "update"],
    }));
  }
  return entry;
}

/** `/api` (core) or `/apis` (every other group) as one APIGroupDiscoveryList. */
export function aggregatedDiscovery(registry: Registry, core: boolean): object {
  const groups = core ? [...registry.groups()].filter(([name]) => name === "") : namedGroups(registry);
  const items = groups.map(([name, versions]) => ({
    metadata: core ? { creationTimestamp: null } : { name, creationTimestamp: null },
    versions: [...versions].sort(compareVersions).map((version) => ({
      version,
      resources: typesAt(registry, name, version).map((t) => aggregatedResource(t, version)),
      freshness: "Current",
    })),
  }));
  return { kind: "APIGroupDiscoveryList", apiVersion: "apidiscovery.k8s.io/v2", metadata: {}, items };
}
