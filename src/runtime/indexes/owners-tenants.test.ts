import { describe, expect, it } from "vitest";
import { Annotation, Reason } from "../sdk/index.ts";
import { demo, H, index, object } from "./owners.testing.ts";
import { alreadyManaged, claimedHrefs, OwnerIndex, ownerLabel } from "./owners.ts";

describe("AlreadyManaged message", () => {
  it("names an owner in the asker's namespace as namespace/name, the kind only when it differs, and says what to change", () => {
    const owner = { key: "Network/demo/main", kind: "Network", namespace: "demo", name: "main" };
    expect(ownerLabel("Network", "demo", owner)).toBe("demo/main");
    expect(ownerLabel("Deployment", "demo", owner)).toBe("demo/main (Network)");
    const error = alreadyManaged("Network", "demo", "/api/networks/3", owner);
    expect(error.reason).toBe(Reason.AlreadyManaged);
    expect(error.message).toBe(
      "/api/networks/3 is already managed by demo/main; this resource will not adopt, update or delete it. " +
        `Point ${Annotation.href} at another object or remove it, or set spec.managementPolicy: ObserveOnly ` +
        "to only observe it; it is adopted once demo/main lets it go",
    );
  });

  it("never names an owner in another namespace: the message says only that; the log fields name it", () => {
    const owner = { key: "Deployment/demo/web", kind: "Deployment", namespace: "demo", name: "web" };
    expect(ownerLabel("Deployment", "attacker", owner)).toBe("a resource in another namespace");
    const error = alreadyManaged("Deployment", "attacker", H, owner);
    expect(error.message).not.toMatch(/demo|web/);
    expect(error.message).toContain("already managed by a resource in another namespace");
    expect(error.message).toContain("adopted once that resource lets it go");
    expect(error.logged).toEqual({ claimed: H, owner: "Deployment demo/web" });
  });

  it("names an owner in another namespace to a reader of every namespace (plan), and only to it", () => {
    const owner = { key: "Deployment/demo/web", kind: "Deployment", namespace: "demo", name: "web" };
    expect(ownerLabel("Deployment", "teamb", owner, "every namespace")).toBe("demo/web");
    expect(ownerLabel("Network", "teamb", owner, "every namespace")).toBe("demo/web (Deployment)");
    const error = alreadyManaged("Deployment", "teamb", H, owner, "every namespace");
    expect(error.message).toContain(`${H} is already managed by demo/web;`);
    expect(error.message).toContain("adopted once demo/web lets it go");
    const claimant = object({ ns: "teamb", name: "web", href: H, created: "2026-01-01T11:00:00Z" });
    const seen = new OwnerIndex(() => undefined, "every namespace");
    seen.set("Deployment", object(demo));
    seen.set("Deployment", claimant);
    expect(() => seen.require("Deployment", claimant)).toThrow(`${H} is already managed by demo/web;`);
    // The operator's index (the default) still names no other namespace.
    const hidden = index([demo]);
    hidden.set("Deployment", claimant);
    expect(() => hidden.require("Deployment", claimant)).toThrow(/by a resource in another namespace;/);
  });

  it("require throws it for any href the resource writes (annotation or status), not for what it replaces", () => {
    const owners = index([demo]);
    const claimant = object({
      ns: "teamb",
      name: "web",
      href: "/api/deployments/1",
      recorded: H,
      created: "2026-01-01T11:00:00Z",
    });
    owners.set("Deployment", claimant);
    expect(() => owners.require("Deployment", claimant)).toThrow(/already managed by a resource in another/);
    expect(() => owners.require("Deployment", object(demo))).not.toThrow();
    // The object a replacement supersedes is only deleted, and left when another manages it.
    const replacing = object({ ns: "teamb", name: "r", replaces: H, created: "2026-01-01T11:00:00Z" });
    owners.set("Deployment", replacing);
    expect(() => owners.require("Deployment", replacing)).not.toThrow();
    expect(owners.retainReason("Deployment", replacing, H)).toBe(
      "it is managed by a resource in another namespace",
    );
  });

  it("retainReason, for a deletion, does not name another namespace's owner either", () => {
    const owners = index([demo]);
    const claimant = object({ ns: "teamb", name: "web", href: H, created: "2026-01-01T11:00:00Z" });
    owners.set("Deployment", claimant);
    expect(owners.retainReason("Deployment", claimant, H)).toBe(
      "it is managed by a resource in another namespace",
    );
  });
});

/** Every spelling of H the review found accepted, and others: none is the same claim as H. */
const OTHER_SPELLINGS = [
  `${H}/`,
  `${H}?x=1`,
  `${H}?`,
  `${H}#top`,
  "/api/deployments/%37",
  `${H}.json`,
  `${H}.xml`,
  "/api/deployments//7",
  "/api/deployments/./7",
  "/api//deployments/7",
];

describe("one-owner index keyed by the canonical href", () => {
  it("claims only canonical hrefs: another spelling in the annotation claims nothing", () => {
    for (const spelling of OTHER_SPELLINGS) {
      const attacker = object({
        ns: "attacker",
        name: "web",
        href: spelling,
        created: "2026-01-01T09:00:00Z",
      });
      expect(claimedHrefs(attacker), spelling).toEqual([]);
      const owners = index([
        demo,
        { ns: "attacker", name: "web", href: spelling, created: "2026-01-01T09:00:00Z" },
      ]);
      // The owner keeps H; the attacker's spelling is nobody's claim on it.
      expect(owners.decide("Deployment", object(demo), H), spelling).toBeUndefined();
      expect(owners.managedElsewhere("Deployment", object(demo), H), spelling).toBeUndefined();
    }
  });

  it("an id;suffix href is canonical and claimed as written", () => {
    const href = "/api/clouds/1/volumes/ABC123;vol-9";
    expect(claimedHrefs(object({ ns: "demo", name: "v", href }))).toEqual([href]);
  });
});
