import { describe, expect, it } from "vitest";
import { describeKinds, hrefOf, parseHref } from "./hrefs.ts";

describe("hrefs", () => {
  it("parses cloud-scoped and flat shapes", () => {
    expect(parseHref("/api/clouds/1/volumes/7", "volume")).toEqual({ kind: "volume", cloudId: "1", id: "7" });
    expect(parseHref("/api/networks/3", "network")).toEqual({ kind: "network", id: "3" });
    expect(parseHref("/api/server_arrays/2", "server", "serverArray")).toEqual({
      kind: "serverArray",
      id: "2",
    });
    expect(parseHref("/api/clouds/1/volume_snapshots/ab;c", "volume", "volumeSnapshot")).toEqual({
      kind: "volumeSnapshot",
      cloudId: "1",
      id: "ab;c",
    });
    expect(parseHref("/api/networks/3.json", "network")?.id).toBe("3");
  });

  it("refuses other shapes", () => {
    expect(parseHref("/api/networks/3/x", "network")).toBeUndefined();
    expect(parseHref("/api/networks/", "network")).toBeUndefined();
    expect(parseHref("networks/3", "network")).toBeUndefined();
    expect(parseHref("/api/clouds/1/volumes/7", "volumeSnapshot")).toBeUndefined();
  });

  it("builds hrefs and describes kinds", () => {
    expect(hrefOf("volume", "1", "7")).toBe("/api/clouds/1/volumes/7");
    expect(hrefOf("routeTable", "4")).toBe("/api/route_tables/4");
    expect(describeKinds("server", "serverArray")).toBe(
      "a server href (/api/servers/:id) or a server array href (/api/server_arrays/:id)",
    );
    expect(describeKinds("instance")).toBe("an instance href (/api/clouds/:cloud_id/instances/:id)");
  });
});
