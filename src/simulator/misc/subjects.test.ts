import { describe, expect, it } from "vitest";
import { SimError } from "../errors.ts";
import { Store } from "../store.ts";
import { resolveSubject, templateHrefOf } from "./subjects.ts";

type Linked = { id: string } & Record<string, unknown>;

function seeded(): Store {
  const store = new Store();
  store.collection("server_templates").insert({ id: "1" });
  store.collection<Linked>("servers").insert({ id: "1", server_template_id: "1" });
  store
    .collection<Linked>("server_arrays")
    .insert({ id: "1", server_template_href: "/api/server_templates/1" });
  store.collection<Linked>("instances").insert({ id: "1", cloud_id: "1", server_template_id: null });
  return store;
}

describe("resolveSubject", () => {
  const store = seeded();
  it.each([
    { href: "/api/server_templates/1", label: "ServerTemplate" },
    { href: "/api/servers/1", label: "Server" },
    { href: "/api/server_arrays/1.json", label: "ServerArray" },
    { href: "/api/clouds/1/instances/1", label: "Instance" },
  ])("finds a $label", ({ href, label }) => {
    const found = resolveSubject(store, href);
    expect(found !== "malformed" && found.kind.label).toBe(label);
  });

  it.each(["/api/deployments/1", "/api/servers", "servers/1", "/api/clouds/1/volumes/1"])(
    "calls %s malformed",
    (href) => {
      expect(resolveSubject(store, href)).toBe("malformed");
    },
  );

  it.each([
    { href: "/api/servers/9", message: "Couldn't find Server with ID=9" },
    { href: "/api/clouds/2/instances/1", message: "Couldn't find Instance with ID=1" },
  ])("answers 422 for $href", ({ href, message }) => {
    try {
      resolveSubject(store, href);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SimError);
      expect((error as SimError).status).toBe(422);
      expect((error as SimError).message).toBe(message);
    }
  });
});

describe("templateHrefOf", () => {
  const store = seeded();
  const of = (href: string) => {
    const found = resolveSubject(store, href);
    if (found === "malformed") throw new Error(href);
    return templateHrefOf(found);
  };
  it("reads server_template_id", () => expect(of("/api/servers/1")).toBe("/api/server_templates/1"));
  it("reads server_template_href", () => expect(of("/api/server_arrays/1")).toBe("/api/server_templates/1"));
  it("is null without a template", () => expect(of("/api/clouds/1/instances/1")).toBeNull());
  it("is null for a ServerTemplate itself", () => expect(of("/api/server_templates/1")).toBeNull());
});
