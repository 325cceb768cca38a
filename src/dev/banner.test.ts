import { describe, expect, it } from "vitest";
import { restoreHint, seededLines } from "./banner.ts";

describe("the banner's blocks", () => {
  it("the seeded hrefs: a line per kind, names beside them, at most four, then how many more", () => {
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ href: `/api/users/${i + 1}`, label: `u${i + 1}@example.com` }));
    expect(
      seededLines([
        { title: "clouds", entries: [{ href: "/api/clouds/1", label: "EC2" }] },
        { title: "users", entries: entries(6) },
        { title: "servers", entries: [] },
      ]),
    ).toEqual([
      "In the simulator, for your own manifests (docs/dev.md#what-the-simulator-holds):",
      "  clouds   /api/clouds/1 (EC2)",
      "  users    /api/users/1 (u1@example.com), /api/users/2 (u2@example.com), /api/users/3 (u3@example.com), /api/users/4 (u4@example.com), and 2 more",
      "  servers  none",
    ]);
  });

  it("the line that brings namespace demo back: the demo file and the samples; without samples, the file alone", () => {
    expect(restoreHint("/s/demo.yaml", "/repo/deploy/samples")).toEqual([
      "After kubectl delete namespace demo, this brings it back (its Secret, its Account and the samples):",
      "  kubectl apply -n demo -f /s/demo.yaml -f /repo/deploy/samples",
    ]);
    expect(restoreHint("/s/demo.yaml", undefined)[1]).toBe("  kubectl apply -n demo -f /s/demo.yaml");
  });
});
