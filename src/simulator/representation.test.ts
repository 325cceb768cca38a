import { describe, expect, it } from "vitest";
import {
  formatTimestamp,
  mediaType,
  parseTimestamp,
  renderMany,
  renderOne,
  singular,
} from "./representation.ts";

describe("timestamps", () => {
  it("format as YYYY/MM/DD HH:MM:SS +0000 in UTC, null stays null", () => {
    expect(formatTimestamp(Date.UTC(2015, 3, 8, 18, 46, 2))).toBe("2015/04/08 18:46:02 +0000");
    expect(formatTimestamp(null)).toBeNull();
  });

  it("parse with an offset; malformed is null", () => {
    expect(parseTimestamp("2015/04/08 18:46:02 +0000")).toBe(Date.UTC(2015, 3, 8, 18, 46, 2));
    expect(parseTimestamp("2015/04/08 11:46:02 -0700")).toBe(Date.UTC(2015, 3, 8, 18, 46, 2));
    expect(parseTimestamp("2015-04-08 18:46:02 +0000")).toBeNull();
  });
});

describe("media types", () => {
  it("carry +json / +xml, type=collection and charset", () => {
    expect(mediaType("deployment", "json", false)).toBe("application/vnd.svc.deployment+json;charset=utf-8");
    expect(mediaType("deployment", "xml", true)).toBe(
      "application/vnd.svc.deployment+xml;type=collection;charset=utf-8",
    );
  });
});

describe("rendering", () => {
  const rep = {
    name: "a & b",
    description: null,
    locked: false,
    size: 5,
    links: [{ rel: "self", href: "/api/x/1" }],
    actions: [],
    inputs: [{ name: "A", value: "text:<x>" }],
    attrs: { priority: 1, instance_tags: ["t1", "t2"] },
  };

  it("JSON is the object as is", () => {
    expect(JSON.parse(renderOne("thing", rep, "json"))).toEqual(rep);
  });

  it("XML: singular root, empty element for null, attributes for links, escaped text", () => {
    const xml = renderOne("thing", rep, "xml");
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<thing><name>a &amp; b</name><description/><locked>false</locked><size>5</size>' +
        '<links><link rel="self" href="/api/x/1"/></links><actions/>' +
        "<inputs><input><name>A</name><value>text:&lt;x&gt;</value></input></inputs>" +
        "<attrs><priority>1</priority><instance_tags><instance_tag>t1</instance_tag><instance_tag>t2</instance_tag></instance_tags></attrs></thing>",
    );
  });

  it("XML collections: plural root, one singular element each; empty collection", () => {
    expect(renderMany("thing", "things", [{ name: "a" }, { name: "b" }], "xml")).toContain(
      "<things><thing><name>a</name></thing><thing><name>b</name></thing></things>",
    );
    expect(renderMany("thing", "things", [], "xml")).toContain("<things/>");
    expect(renderMany("thing", "things", [], "json")).toBe("[]");
  });

  it("singularizes array element names", () => {
    expect(singular("capabilities")).toBe("capability");
    expect(singular("variables_data")).toBe("variable_data");
    expect(singular("allowed_instance_hrefs")).toBe("allowed_instance_href");
    expect(singular("addresses")).toBe("address");
    expect(singular("boxes")).toBe("box");
  });
});
