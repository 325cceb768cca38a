/**
 * The real service's recorded answers (shared/spec/recorded-real-answers.md: the answers the
 * public Go client rightscale/rsc replays in its tests). The reference data lists every
 * attribute a media type may carry in any view; these show what one view does carry: per
 * request, the attributes of each object (besides `links`, sorted) and its link rels in the
 * recorded order.
 */

export interface RecordedShape {
  /** The reference's resource (`real-media-types.json`) and the view the answer is in. */
  resource: string;
  view: string;
  attributes: readonly string[];
  links: readonly string[];
}

/** An instance as `current_instances` lists it and as a server embeds it (view default). */
export const INSTANCE_DEFAULT: RecordedShape = {
  resource: "Instances",
  view: "default",
  attributes: [
    "actions",
    "associate_public_ip_address",
    "cloud_specific_attributes",
    "created_at",
    "ip_forwarding_enabled",
    "locked",
    "name",
    "pricing_type",
    "private_ip_addresses",
    "public_ip_addresses",
    "resource_uid",
    "state",
    "updated_at",
  ],
  links: [
    "self",
    "cloud",
    "deployment",
    "server_template",
    "multi_cloud_image",
    "parent",
    "volume_attachments",
    "inputs",
    "monitoring_metrics",
    "alerts",
  ],
};

export const SERVER_ARRAY_DEFAULT: RecordedShape = {
  resource: "ServerArrays",
  view: "default",
  attributes: [
    "actions",
    "array_type",
    "datacenter_policy",
    "description",
    "elasticity_params",
    "instances_count",
    "name",
    "state",
  ],
  links: ["self", "deployment", "current_instances", "next_instance", "alert_specs", "alerts"],
};

export const SERVER_INSTANCE_DETAIL: RecordedShape = {
  resource: "Servers",
  view: "instance_detail",
  attributes: [
    "actions",
    "created_at",
    "current_instance",
    "description",
    "name",
    "next_instance",
    "state",
    "updated_at",
  ],
  links: ["self", "deployment", "current_instance", "next_instance", "alert_specs", "alerts"],
};

export interface RecordedRequest {
  path: string;
  /** The attribute of each answered object that holds the recorded object, if not the object. */
  embeddedIn?: string;
  shape: RecordedShape;
}

/** The recorded requests: each an index, so every object of the answer is held to the shape. */
export const RECORDED_REQUESTS: readonly RecordedRequest[] = [
  { path: "/api/server_arrays", shape: SERVER_ARRAY_DEFAULT },
  { path: "/api/server_arrays/1/current_instances", shape: INSTANCE_DEFAULT },
  { path: "/api/servers?view=instance_detail", shape: SERVER_INSTANCE_DETAIL },
  { path: "/api/servers?view=instance_detail", embeddedIn: "current_instance", shape: INSTANCE_DEFAULT },
];
