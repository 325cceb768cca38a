import { describe, expect, it } from "vitest";
import {
  cloudSupports,
  isAwsLike,
  isNextInstance,
  isOpenStackLike,
  snapshotSize,
  volumeTypeSize,
} from "./linked.ts";

describe("linked-object accessors", () => {
  it("reads capabilities stored as a map or a list", () => {
    const map = { id: "1", capabilities: { supports_networks: false, supports_route_tables: true } };
    expect(cloudSupports(map, "supports_networks")).toBe(false);
    expect(cloudSupports(map, "supports_route_tables")).toBe(true);
    const list = { id: "1", capabilities: [{ name: "supports_networks", value: "true" }] };
    expect(cloudSupports(list, "supports_networks")).toBe(true);
    expect(cloudSupports(list, "supports_volume_snapshots")).toBe(false);
    expect(cloudSupports({ id: "1" }, "supports_networks")).toBe(true);
  });
  it("recognises cloud kinds by type", () => {
    expect(isAwsLike({ id: "1", cloud_type: "amazon" })).toBe(true);
    expect(isOpenStackLike({ id: "2", cloud_type: "open_stack_v3" })).toBe(true);
    expect(isOpenStackLike({ id: "1", cloud_type: "amazon" })).toBe(false);
  });
  it("reads instances, volume types and snapshots", () => {
    expect(isNextInstance({ id: "3", is_next: true, state: "inactive" })).toBe(true);
    expect(isNextInstance({ id: "1", is_next: false, state: "operational" })).toBe(false);
    expect(isNextInstance({ id: "1", state: "inactive" })).toBe(true);
    expect(volumeTypeSize({ id: "1", size: "4" })).toBe(4);
    expect(volumeTypeSize({ id: "1", size: "" })).toBeNull();
    expect(snapshotSize({ id: "1", size: 50 })).toBe(50);
    expect(snapshotSize({ id: "1" })).toBe(1);
  });
});
