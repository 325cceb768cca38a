// The volume the volumes-*.test.ts files create, and the collection they create it in.
export const VOLUME = { name: "data", datacenter_href: "/api/clouds/1/datacenters/1" };
export const V = "/api/clouds/1/volumes";
