/**
 * Server and server array representations (beyond the spec; shape from the reference data and
 * the recorded real answers, which carry no `optimized`), views `default` and
 * `instance_detail` (which embeds the current and next instances). Links in the reference's
 * order; a server's cloud and server template show on its instances.
 */
import { formatTimestamp, type Link, link, type Representation } from "../representation.ts";
import type { Store } from "../store.ts";
import { instanceRepresentation } from "./instances.ts";
import { hrefs, type InstanceRecord, type ServerArrayRecord, type ServerRecord } from "./linked-records.ts";

export const SERVER_VIEWS = ["default", "instance_detail"] as const;
export type ServerView = (typeof SERVER_VIEWS)[number];

const optional = (rel: string, id: string | null, href: (id: string) => string): Link[] =>
  id === null ? [] : [link(rel, href(id))];

const instances = (store: Store) => store.collection<InstanceRecord>("instances");

/** The instance an id names, rendered (default view) for `instance_detail`; null when none. */
function embeddedInstance(store: Store, id: string | null): Representation | null {
  const instance = id === null ? undefined : instances(store).get(id);
  return instance ? instanceRepresentation(store, instance) : null;
}

export function serverRepresentation(store: Store, s: ServerRecord, view: ServerView): Representation {
  const instanceHref = (id: string) => hrefs.instance(s.cloud_id, id);
  const current = s.current_instance_id === null ? undefined : instances(store).get(s.current_instance_id);
  const rep: Representation = {
    name: s.name,
    description: s.description,
    created_at: formatTimestamp(s.created_at),
    updated_at: formatTimestamp(s.updated_at),
    // A server reads as its running instance does; without one it is inactive.
    state: current?.state ?? "inactive",
    links: [
      link("self", hrefs.server(s.id)),
      ...optional("deployment", s.deployment_id, hrefs.deployment),
      ...optional("current_instance", s.current_instance_id, instanceHref),
      ...optional("next_instance", s.next_instance_id, instanceHref),
      link("alert_specs", `${hrefs.server(s.id)}/alert_specs`),
      link("alerts", `${hrefs.server(s.id)}/alerts`),
    ],
    actions: [],
  };
  if (view === "instance_detail") {
    rep.current_instance = embeddedInstance(store, s.current_instance_id);
    rep.next_instance = embeddedInstance(store, s.next_instance_id);
  }
  return rep;
}

/** The running instances of an array (its `current_instances`). */
export function currentInstancesOf(store: Store, a: ServerArrayRecord): InstanceRecord[] {
  return instances(store).filter((i) => i.server_array_id === a.id && !i.is_next);
}

export function serverArrayRepresentation(
  store: Store,
  a: ServerArrayRecord,
  view: ServerView,
): Representation {
  const href = hrefs.serverArray(a.id);
  const current = currentInstancesOf(store, a);
  const rep: Representation = {
    name: a.name,
    description: a.description,
    state: a.state,
    array_type: a.array_type,
    // Scaling is not simulated: the bounds and pacing are shown as an array would hold them.
    elasticity_params: {
      bounds: { min_count: String(a.min_count), max_count: String(a.max_count) },
      pacing: { resize_up_by: "1", resize_down_by: "1", resize_calm_time: "15" },
      alert_specific_params: { decision_threshold: "51", voters_tag_predicate: a.name },
      schedule: [],
    },
    links: [
      link("self", href),
      ...optional("deployment", a.deployment_id, hrefs.deployment),
      link("current_instances", `${href}/current_instances`),
      ...optional("next_instance", a.next_instance_id, (id) => hrefs.instance(a.cloud_id, id)),
      link("alert_specs", `${href}/alert_specs`),
      link("alerts", `${href}/alerts`),
    ],
    actions: [],
    instances_count: current.length,
    datacenter_policy: [],
  };
  if (view === "instance_detail") {
    rep.current_instances = current.map((i) => instanceRepresentation(store, i));
    rep.next_instance = embeddedInstance(store, a.next_instance_id);
  }
  return rep;
}
