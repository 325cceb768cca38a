import { describe, expect, it } from "vitest";
import { encodeForm, encodeMultipart, encodeQuery, filterParams } from "./encoding.ts";

describe("encodeForm", () => {
  it("writes bracket notation with string values", () => {
    const body = encodeForm({ deployment: { name: "web app", locked: false, size: 10, skipped: undefined } });
    expect(decodeURIComponent(body)).toBe(
      "deployment[name]=web app&deployment[locked]=false&deployment[size]=10",
    );
  });
  it("writes nested arrays and the legacy inputs pairs", () => {
    const body = encodeForm({
      route: { cloud_specific_attributes: { instance_tags: ["a", "b"] } },
      inputs: [{ name: "X", value: "text:Y" }],
    });
    expect(decodeURIComponent(body)).toBe(
      "route[cloud_specific_attributes][instance_tags][]=a&route[cloud_specific_attributes][instance_tags][]=b&inputs[][name]=X&inputs[][value]=text:Y",
    );
  });
  it("sends null as a blank value", () => {
    expect(decodeURIComponent(encodeForm({ subnet: { route_table_href: null } }))).toBe(
      "subnet[route_table_href]=",
    );
  });
});

describe("filters and query", () => {
  it("turns a map or entries into filter[] strings", () => {
    expect(filterParams({ name: "web" })).toEqual(["name==web"]);
    expect(filterParams([{ field: "name", op: "<>", value: "x y" }])).toEqual(["name<>x y"]);
    expect(filterParams({})).toBeUndefined();
  });
  it("encodes a query string, or nothing", () => {
    expect(decodeURIComponent(encodeQuery({ view: "default", filter: ["name==a b"] }))).toBe(
      "?view=default&filter[]=name==a b",
    );
    expect(encodeQuery({ view: undefined })).toBe("");
    expect(encodeQuery(undefined)).toBe("");
  });
});

describe("encodeMultipart", () => {
  it("uses bracketed field names and a file part", async () => {
    const form = encodeMultipart("stored_script_attachment", {
      filename: "a.sh",
      content: { content: "echo hi", filename: "a.sh" },
    });
    expect(form.get("stored_script_attachment[filename]")).toBe("a.sh");
    const file = form.get("stored_script_attachment[content]") as File;
    expect(file.name).toBe("a.sh");
    expect(await file.text()).toBe("echo hi");
  });
});
