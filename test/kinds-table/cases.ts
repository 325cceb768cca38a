import { expect } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";

export const C = "/api/clouds/1";
export const SERVER = "/api/servers/1";
/** The seed's running instance of server 1 (a binding to it is one-time) and its next one (recurring). */
export const I1 = `${C}/instances/1`;
export const I3 = `${C}/instances/3`;

/** Hrefs of the namespace's parents: Deployments `web` and `web2`, Network `main`, IpAddress `ip`. */
export interface Parents {
  web: string;
  web2: string;
  main: string;
  ip: string;
}

/** How one table kind goes through the standard treatment (see table-kinds.test.ts). */
export interface KindCase {
  kind: string;
  /** The simulator collection and the create route (statistics template). */
  collection: string;
  post: string;
  wrapper: string;
  spec: Record<string, unknown>;
  /** What the service must hold after the create. */
  created(p: Parents): Record<string, unknown>;
  /** Each updatable field: the spec change and the exact body of the one PUT it must cause (none: no update). */
  updates(p: Parents): { spec: Record<string, unknown>; body: Record<string, unknown> }[];
  /** A change the apiserver refuses (absent: the kind replaces its object on any change). */
  immutable?: { spec: Record<string, unknown>; field: string };
  atProvider: Record<string, unknown>;
  /** Makes one in the service, outside the operator, and deletes one there. */
  make(api: ServiceApi, name: string): Promise<string>;
  destroy(api: ServiceApi, href: string): Promise<void>;
  /** ObserveOnly of what `make` made: a spec that differs from it, what status shows, what the service keeps. */
  observe: {
    spec(name: string): Record<string, unknown>;
    atProvider(name: string): Record<string, unknown>;
    untouched: Record<string, unknown>;
  };
}

/** An alert on a metric every running instance of the simulator reports. */
export const ALERT = {
  subjectHref: SERVER,
  file: "cpu-0/cpu-idle",
  variable: "value",
  condition: "<",
  threshold: "10",
  duration: 5,
  escalationName: "critical",
};

const idOf = (href: string) => href.split("/").at(-1);

export const cases: KindCase[] = [
  {
    kind: "IpAddress",
    collection: "ip_addresses",
    post: "/api/clouds/:cloud_id/ip_addresses",
    wrapper: "ip_address",
    spec: { cloudHref: C, domain: "vpc", networkRef: { name: "main" }, deploymentRef: { name: "web" } },
    created: (p) => ({ name: "x", domain: "vpc", network_href: p.main, deployment_href: p.web }),
    updates: (p) => [
      { spec: { name: "x-renamed" }, body: { name: "x-renamed" } },
      // The API requires the name in every update.
      { spec: { deploymentRef: { name: "web2" } }, body: { deployment_href: p.web2, name: "x-renamed" } },
    ],
    immutable: { spec: { domain: "ec2_classic" }, field: "spec.domain" },
    atProvider: { cloudHref: C, address: expect.stringMatching(/^198\.1[89]\.\d+\.\d+$/) },
    make: (api, name) => api.ipAddresses.create(C, { name }),
    destroy: (api, href) => api.ipAddresses.destroy(href),
    observe: {
      spec: (name) => ({ cloudHref: C, name, deploymentHref: "/api/deployments/1" }),
      atProvider: (name) => ({ cloudHref: C, name }),
      untouched: { deployment_href: null },
    },
  },
  {
    kind: "ResourceGroup",
    collection: "resource_groups",
    post: "/api/resource_groups",
    wrapper: "resource_group",
    spec: { cloudHref: C, deploymentRef: { name: "web" } },
    created: (p) => ({ name: "x", cloud_id: "1", deployment_href: p.web, description: null }),
    updates: (p) => [
      { spec: { description: "team a" }, body: { description: "team a" } },
      { spec: { deploymentRef: { name: "web2" } }, body: { deployment_href: p.web2 } },
      { spec: { description: "" }, body: { description: "" } },
    ],
    immutable: { spec: { name: "other" }, field: "spec.name" },
    atProvider: { cloudHref: C, state: "available" },
    make: (api, name) => api.resourceGroups.create({ cloud_href: C, name }),
    destroy: (api, href) => api.resourceGroups.destroy(href),
    observe: {
      spec: (name) => ({ cloudHref: C, name, deploymentHref: "/api/deployments/1" }),
      atProvider: (name) => ({ cloudHref: C, state: "available", name }),
      untouched: { deployment_href: null },
    },
  },
  {
    // No update in the service: every change replaces the binding (kinds-table/replace.test.ts).
    kind: "IpAddressBinding",
    collection: "ip_address_bindings",
    post: "/api/clouds/:cloud_id/ip_address_bindings",
    wrapper: "ip_address_binding",
    spec: { cloudHref: C, ipAddressRef: { name: "ip" }, instanceHref: I1, publicPort: 8080, protocol: "TCP" },
    created: (p) => ({
      ip_address_id: idOf(p.ip),
      instance_href: I1,
      public_port: 8080,
      private_port: 8080,
      protocol: "TCP",
      recurring: false,
    }),
    updates: () => [],
    atProvider: { cloudHref: C, instanceHref: I1, recurring: false },
    make: (api) =>
      api.ipAddressBindings.create(C, { instance_href: I3, public_port: "2200", protocol: "UDP" }),
    destroy: (api, href) => api.ipAddressBindings.destroy(href),
    observe: {
      spec: () => ({ cloudHref: C, instanceHref: I3, publicPort: 2200, privatePort: 22, protocol: "UDP" }),
      atProvider: () => ({ cloudHref: C, instanceHref: I3, privatePort: 2200, recurring: true }),
      untouched: { private_port: 2200 },
    },
  },
  {
    kind: "AlertSpec",
    collection: "alert_specs",
    post: "/api/alert_specs",
    wrapper: "alert_spec",
    spec: ALERT,
    created: () => ({
      name: "x",
      subject_href: SERVER,
      file: "cpu-0/cpu-idle",
      variable: "value",
      condition: "<",
      threshold: "10",
      duration: 5,
      escalation_name: "critical",
      vote_type: null,
    }),
    updates: () => [
      { spec: { name: "x-renamed" }, body: { name: "x-renamed" } },
      { spec: { description: "CPU busy" }, body: { description: "CPU busy" } },
      { spec: { file: "cpu-0/cpu-user" }, body: { file: "cpu-0/cpu-user" } },
      { spec: { file: "load/load", variable: "midterm" }, body: { file: "load/load", variable: "midterm" } },
      { spec: { variable: "longterm" }, body: { variable: "longterm" } },
      { spec: { condition: ">" }, body: { condition: ">" } },
      { spec: { threshold: "4" }, body: { threshold: "4" } },
      { spec: { duration: 10 }, body: { duration: "10" } },
      { spec: { escalationName: "page" }, body: { escalation_name: "page" } },
      {
        spec: { escalationName: null, voteTag: "web", voteType: "grow" },
        body: { escalation_name: "", vote_tag: "web", vote_type: "grow" },
      },
      { spec: { voteType: "shrink" }, body: { vote_type: "shrink" } },
    ],
    immutable: { spec: { subjectHref: "/api/servers/2" }, field: "spec.subjectHref" },
    atProvider: { subjectHref: SERVER, escalationName: "critical", duration: 5 },
    make: (api, name) =>
      api.alertSpecs.create({
        name,
        subject_href: SERVER,
        file: "cpu-0/cpu-idle",
        variable: "value",
        condition: ">",
        threshold: "1",
        duration: 1,
        escalation_name: "warn",
      }),
    destroy: (api, href) => api.alertSpecs.destroy(href),
    observe: {
      spec: (name) => ({
        subjectHref: SERVER,
        name,
        file: "cpu-0/cpu-idle",
        variable: "value",
        condition: ">",
        threshold: "99",
        duration: 1,
        escalationName: "warn",
      }),
      atProvider: (name) => ({ name, threshold: "1", escalationName: "warn" }),
      untouched: { threshold: "1" },
    },
  },
];
