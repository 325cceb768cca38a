import { describe, expect, it } from "vitest";
import { checkRepresentation, newSeen, type Rules } from "./checker.ts";
import type { Facts } from "./facts.ts";

const facts: Facts = {
  Widgets: {
    media_type: "application/vnd.svc.widget",
    attributes: ["name", "size", "parts", "links"],
    links: ["self", "cloud", "owner"],
    actions: {},
  },
  Parts: { media_type: "application/vnd.svc.part", attributes: ["name"], links: [], actions: {} },
};
const rules: Rules = {
  Widgets: {
    views: { default: ["parts"], extended: [] },
    nested: { parts: { resource: "Parts", view: "default", list: true } },
  },
  Parts: { views: { default: [] } },
};
const widget = {
  name: "w",
  size: 1,
  links: [
    { rel: "self", href: "/api/widgets/1" },
    { rel: "cloud", href: "/api/clouds/1" },
  ],
};
const check = (rep: unknown, view = "default") => checkRepresentation(facts, rules, "Widgets", view, rep);

describe("checkRepresentation", () => {
  it("passes a representation of the declared shape, and records what it saw", () => {
    const seen = newSeen();
    expect(checkRepresentation(facts, rules, "Widgets", "default", widget, seen)).toEqual([]);
    expect([...seen.attributes.get("Widgets")!]).toEqual(["name", "size", "links"]);
    expect([...seen.rels.get("Widgets")!]).toEqual(["self", "cloud"]);
  });

  it("reports an attribute the media type does not declare", () => {
    expect(check({ ...widget, next_hop_href: null })).toEqual([
      "Widgets (view default): undeclared attribute 'next_hop_href'",
    ]);
  });

  it("reports a declared attribute that is missing, and one sent in a view that leaves it out", () => {
    const { size: _size, ...withoutSize } = widget;
    expect(check(withoutSize)).toEqual(["Widgets (view default): declared attribute 'size' is missing"]);
    expect(check({ ...widget, parts: [] })).toEqual([
      "Widgets (view default): attribute 'parts' is sent, but the view leaves it out",
    ]);
  });

  it("reports undeclared rels, rels out of the reference's order and repeated rels", () => {
    const links = (...rels: string[]) => ({
      ...widget,
      links: rels.map((rel) => ({ rel, href: `/x/${rel}` })),
    });
    expect(check(links("self", "network"))).toEqual([
      "Widgets (view default): undeclared link rel 'network'",
    ]);
    expect(check(links("self", "owner", "cloud"))).toEqual([
      "Widgets (view default): link rel 'cloud' comes after 'owner' (the real order is the other way)",
    ]);
    expect(check(links("self", "cloud", "cloud"))).toEqual([
      "Widgets (view default): link rel 'cloud' is sent twice",
    ]);
    expect(check({ ...widget, links: [{ rel: "self" }] })).toEqual([
      "Widgets (view default): links is not a list of {rel, href}",
    ]);
  });

  it("holds a view to the rels it carries, in a recorded order, and never an unserved attribute", () => {
    const recorded: Rules = {
      ...rules,
      Widgets: {
        ...rules.Widgets!,
        viewLinks: { default: ["self", "owner"] },
        linkOrder: ["owner", "self", "cloud"],
        unservedAttributes: { size: "no real answer carries it" },
      },
    };
    const { size: _size, ...withoutSize } = widget;
    const links = (view: string, ...rels: string[]) =>
      checkRepresentation(facts, recorded, "Widgets", view, {
        ...withoutSize,
        ...(view === "extended" ? { parts: [] } : {}),
        links: rels.map((rel) => ({ rel, href: `/x/${rel}` })),
      });
    expect(links("default", "owner", "self")).toEqual([]);
    expect(links("default", "self", "cloud")).toEqual([
      "Widgets (view default): link rel 'cloud' is sent, but the view leaves it out",
    ]);
    expect(links("extended", "self", "owner")).toEqual([
      "Widgets (view extended): link rel 'owner' comes after 'self' (the real order is the other way)",
    ]);
    expect(checkRepresentation(facts, recorded, "Widgets", "extended", { ...widget, parts: [] })).toEqual([
      "Widgets (view extended): attribute 'size' is sent, but the view leaves it out",
    ]);
  });

  it("checks embedded representations against their own type", () => {
    expect(check({ ...widget, parts: [{ name: "p" }, { name: "q", extra: 1 }] }, "extended")).toEqual([
      "Widgets (view extended).parts: Parts (view default): undeclared attribute 'extra'",
    ]);
  });

  it("refuses a view the rules do not describe and a resource the reference does not have", () => {
    expect(check(widget, "tiny")).toEqual(["Widgets (view tiny): the rules name no choice for this view"]);
    expect(checkRepresentation(facts, rules, "Gadgets", "default", {})).toEqual([
      "Gadgets (view default): no such resource in the reference",
    ]);
  });
});
