import { describe, expect, it } from "vitest";
import { Reason } from "../sdk/index.ts";
import { type Cr, demo, H, index, object } from "./owners.testing.ts";
import { compactHrefs, type OwnerIndex } from "./owners.ts";

describe("OwnerIndex.decide: who manages an href a resource names", () => {
  const cases: { reason: string; crs: Cr[]; asker: Cr; owner: string | undefined }[] = [
    {
      reason: "a lone Manage claimant manages its href",
      crs: [demo],
      asker: demo,
      owner: undefined,
    },
    {
      reason: "the exact finding: another namespace's resource annotated with the href is not the owner",
      crs: [demo, { ns: "teamb", name: "web", href: H, created: "2026-01-01T11:00:00Z" }],
      asker: { ns: "teamb", name: "web", href: H, created: "2026-01-01T11:00:00Z" },
      owner: "Deployment/demo/web",
    },
    {
      reason: "the one that recorded the href in status keeps it against an older newcomer",
      crs: [demo, { ns: "teamb", name: "web", href: H, created: "2025-06-01T00:00:00Z" }],
      asker: { ns: "teamb", name: "web", href: H, created: "2025-06-01T00:00:00Z" },
      owner: "Deployment/demo/web",
    },
    {
      reason: "the owner asking is still the owner when a newcomer claims the href",
      crs: [demo, { ns: "teamb", name: "web", href: H, created: "2025-06-01T00:00:00Z" }],
      asker: demo,
      owner: undefined,
    },
    {
      reason: "two newcomers, neither recorded: the older one manages it",
      crs: [
        { ns: "teamb", name: "web", href: H, created: "2026-01-01T12:00:00Z" },
        { ns: "demo", name: "web", href: H, created: "2026-01-01T11:00:00Z" },
      ],
      asker: { ns: "teamb", name: "web", href: H, created: "2026-01-01T12:00:00Z" },
      owner: "Deployment/demo/web",
    },
    {
      reason: "same creation time: the first by key (kind/namespace/name), the same on every replica",
      crs: [
        { ns: "teamb", name: "web", href: H },
        { ns: "demo", name: "web", href: H },
      ],
      asker: { ns: "teamb", name: "web", href: H },
      owner: "Deployment/demo/web",
    },
    {
      reason: "both recorded (two owners left from before the check): the older one keeps it",
      crs: [
        { ns: "teamb", name: "web", href: H, recorded: H, created: "2026-01-01T12:00:00Z" },
        { ...demo, created: "2026-01-01T11:00:00Z" },
      ],
      asker: { ns: "teamb", name: "web", href: H, recorded: H, created: "2026-01-01T12:00:00Z" },
      owner: "Deployment/demo/web",
    },
    {
      reason: "ObserveOnly resources never own: a Manage resource of an observed href manages it",
      crs: [
        { ...demo, observeOnly: true },
        { ns: "teamb", name: "web", href: H },
      ],
      asker: { ns: "teamb", name: "web", href: H },
      owner: undefined,
    },
    {
      reason: "an ObserveOnly asker is told who manages it",
      crs: [demo, { ns: "teamb", name: "watch", href: H, observeOnly: true }],
      asker: { ns: "teamb", name: "watch", href: H, observeOnly: true },
      owner: "Deployment/demo/web",
    },
    {
      reason: "across kinds: a Network annotated with a Deployment's href does not manage it",
      crs: [demo, { kind: "Network", ns: "teamb", name: "net", href: H }],
      asker: { kind: "Network", ns: "teamb", name: "net", href: H },
      owner: "Deployment/demo/web",
    },
    {
      reason: "an href in another service account (accountId 2) is another object",
      crs: [demo, { ns: "teamc", name: "web", href: H }],
      asker: { ns: "teamc", name: "web", href: H },
      owner: undefined,
    },
    {
      reason: "the service account is the Account's, not the namespace's",
      crs: [demo, { ns: "teamb", name: "web", href: H, account: "other" }],
      asker: { ns: "teamb", name: "web", href: H, account: "other" },
      owner: undefined,
    },
    {
      reason: "an Account missing from the cache matches every account: fail closed",
      crs: [demo, { ns: "teamz", name: "web", href: H }],
      asker: { ns: "teamz", name: "web", href: H },
      owner: "Deployment/demo/web",
    },
    {
      reason: "an owner being deleted still manages the href until it is gone",
      crs: [
        { ...demo, deleting: true },
        { ns: "teamb", name: "web", href: H },
      ],
      asker: { ns: "teamb", name: "web", href: H },
      owner: "Deployment/demo/web",
    },
    {
      reason: "the href of a replacement's predecessor (replaces) is still managed by the replacer",
      crs: [
        { kind: "Route", ns: "demo", name: "default", replaces: H, created: "2026-01-01T10:00:00Z" },
        { kind: "Route", ns: "teamb", name: "default", href: H, created: "2026-01-01T11:00:00Z" },
      ],
      asker: { kind: "Route", ns: "teamb", name: "default", href: H, created: "2026-01-01T11:00:00Z" },
      owner: "Route/demo/default",
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const owners = index(c.crs);
      const owner = owners.decide(c.asker.kind ?? "Deployment", object(c.asker), H);
      expect(owner?.key).toBe(c.owner);
    });
  }
});

describe("OwnerIndex.decide: a decision sticks", () => {
  it("the resource let manage an href keeps it against an older resource re-pointed at it before the first one recorded it", () => {
    const newcomer: Cr = { ns: "teamb", name: "web", href: H, created: "2026-01-01T12:00:00Z" };
    const owners = index([newcomer]);
    expect(owners.decide("Deployment", object(newcomer), H)).toBeUndefined();
    // Its adoption is in flight (status not written yet) when an older resource names the href.
    const older: Cr = { ns: "demo", name: "web", href: H, created: "2025-01-01T00:00:00Z" };
    owners.set("Deployment", object(older));
    expect(owners.decide("Deployment", object(older), H)?.key).toBe("Deployment/teamb/web");
    expect(owners.decide("Deployment", object(newcomer), H)).toBeUndefined();
  });

  it("without an earlier decision the older of the two manages it (what the grant above overrides)", () => {
    const owners = index([
      { ns: "teamb", name: "web", href: H, created: "2026-01-01T12:00:00Z" },
      { ns: "demo", name: "web", href: H, created: "2025-01-01T00:00:00Z" },
    ]);
    expect(
      owners.decide(
        "Deployment",
        object({ ns: "demo", name: "web", href: H, created: "2025-01-01T00:00:00Z" }),
        H,
      ),
    ).toBeUndefined();
  });

  it("a recorded owner is never overtaken by a grant made while it was out of the cache", () => {
    const newcomer: Cr = { ns: "teamb", name: "web", href: H, created: "2026-01-01T12:00:00Z" };
    const owners = index([newcomer]);
    owners.decide("Deployment", object(newcomer), H);
    owners.set("Deployment", object(demo));
    expect(owners.decide("Deployment", object(newcomer), H)?.key).toBe("Deployment/demo/web");
  });
});

describe("OwnerIndex.set and remove: whom to wake when an owner lets go", () => {
  const teamb: Cr = { ns: "teamb", name: "web", href: H };
  const watcher: Cr = { ns: "teamb", name: "watch", href: H, observeOnly: true };
  const cases: { reason: string; crs: Cr[]; change: (o: OwnerIndex) => string[]; wake: string[] }[] = [
    {
      reason: "the owner is deleted: the Manage claimants may adopt (ObserveOnly ones need nothing)",
      crs: [demo, teamb, watcher],
      change: (o) => o.remove("Deployment/demo/web"),
      wake: ["Deployment/teamb/web"],
    },
    {
      reason: "the owner's href changes (annotation and status): the claimants of the old one",
      crs: [demo, teamb],
      change: (o) =>
        o.set("Deployment", object({ ...demo, href: "/api/deployments/8", recorded: "/api/deployments/8" })),
      wake: ["Deployment/teamb/web"],
    },
    {
      reason: "the owner turns ObserveOnly: it no longer writes, so a claimant may manage",
      crs: [demo, teamb],
      change: (o) => o.set("Deployment", object({ ...demo, observeOnly: true })),
      wake: ["Deployment/teamb/web"],
    },
    {
      reason: "a status write that keeps the href (most updates) wakes nobody",
      crs: [demo, teamb],
      change: (o) => o.set("Deployment", object({ ...demo, deleting: true })),
      wake: [],
    },
    {
      reason: "the annotation is gone but status still holds the href: still managed, nobody woken",
      crs: [demo, teamb],
      change: (o) => o.set("Deployment", object({ ...demo, href: undefined })),
      wake: [],
    },
    {
      reason: "an ObserveOnly resource going away frees nothing",
      crs: [demo, teamb, watcher],
      change: (o) => o.remove("Deployment/teamb/watch"),
      wake: [],
    },
    {
      reason: "a resource never indexed wakes nobody",
      crs: [demo],
      change: (o) => o.remove("Deployment/nowhere/web"),
      wake: [],
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      expect(c.change(index(c.crs)).sort()).toEqual(c.wake);
    });
  }

  it("after the owner is removed, the claimant manages the href", () => {
    const owners = index([demo, teamb]);
    owners.remove("Deployment/demo/web");
    expect(owners.decide("Deployment", object(teamb), H)).toBeUndefined();
  });
});

describe("OwnerIndex.adoptable: what a lookup may adopt", () => {
  const match = (href: string) => ({ href });
  const hrefOf = (m: { href: string }) => m.href;
  const asker: Cr = { ns: "teamb", name: "web" };
  const cases: {
    reason: string;
    crs: Cr[];
    identity: boolean;
    deleting?: boolean;
    adoptable?: string[];
    stalled?: RegExp;
  }[] = [
    {
      reason: "by name: a namesake another resource manages is not this one's lost create",
      crs: [demo],
      identity: false,
      adoptable: ["/api/deployments/9"],
    },
    {
      reason: "by name: nor one another resource only observes",
      crs: [{ ...demo, observeOnly: true }],
      identity: false,
      adoptable: ["/api/deployments/9"],
    },
    {
      reason: "by name: a namesake in another service account is not the same object",
      crs: [{ ...demo, ns: "teamc" }],
      identity: false,
      adoptable: [H, "/api/deployments/9"],
    },
    {
      reason: "by identity (a grant): the match another resource manages is that one's: AlreadyManaged",
      crs: [demo],
      identity: true,
      stalled: /^\/api\/deployments\/7 is already managed by a resource in another namespace;/,
    },
    {
      reason: "by identity: one only observed elsewhere may be managed here",
      crs: [{ ...demo, observeOnly: true }],
      identity: true,
      adoptable: [H, "/api/deployments/9"],
    },
    {
      reason: "by identity, while deleting: the match managed elsewhere is left out, not an error",
      crs: [demo],
      identity: true,
      deleting: true,
      adoptable: ["/api/deployments/9"],
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const owners = index(c.crs);
      const run = () =>
        owners
          .adoptable(
            "Deployment",
            object({ ...asker, deleting: c.deleting }),
            [match(H), match("/api/deployments/9")],
            hrefOf,
            c.identity,
          )
          .map(hrefOf);
      if (c.stalled) {
        expect(run).toThrow(c.stalled);
        try {
          run();
        } catch (error) {
          expect(error).toMatchObject({ reason: Reason.AlreadyManaged, code: "TERMINAL" });
        }
      } else expect(run()).toEqual(c.adoptable);
    });
  }
});

describe("compactHrefs: a claim's hrefs as the index keeps them", () => {
  it("keeps one href as the string, none as one shared list, more as an exact copy", () => {
    expect(compactHrefs([H])).toBe(H);
    expect(compactHrefs([])).toBe(compactHrefs([]));
    const two = [H, `${H}0`];
    const kept = compactHrefs(two);
    expect(kept).toEqual(two);
    expect(kept).not.toBe(two);
  });
});
