import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { files, HEADER, type Output, stream } from "./write.ts";

const output = (layout: "kind" | "object"): Output => ({
  namespace: "team-a",
  accountName: "default",
  account: {
    endpoint: "https://us-3.example.com",
    accountId: 7,
    session: { secretRef: { name: "login", emailKey: "email", passwordKey: "password" } },
  },
  secret: { name: "login", keys: ["email", "password"] },
  documents: [
    { plural: "networks", name: "a", body: { kind: "Network", metadata: { name: "a" } } },
    { plural: "networks", name: "b", body: { kind: "Network", metadata: { name: "b" } } },
    { plural: "subnets", name: "c", body: { kind: "Subnet", metadata: { name: "c" } } },
  ],
  layout,
});

describe("export's files", () => {
  it("one file per kind, a kustomization listing them and the Account; the Secret's template apart, keys and no values", () => {
    const f = files(output("kind"));
    expect(parse(f.get("kustomization.yaml")!).resources).toEqual([
      "account.yaml",
      "networks.yaml",
      "subnets.yaml",
    ]);
    expect(f.get("networks.yaml")!.split("---\n")).toHaveLength(2);
    expect(parse(f.get("account.yaml")!).spec).toEqual(output("kind").account);
    expect(parse(f.get("account-secret.template.yaml")!)).toMatchObject({
      kind: "Secret",
      metadata: { name: "login", namespace: "team-a" },
      stringData: { email: "", password: "" },
    });
    for (const text of f.values()) expect(text.startsWith(HEADER)).toBe(true);
  });

  it("one file per object with --layout object", () => {
    expect([...files(output("object")).keys()]).toEqual([
      "account.yaml",
      "networks/a.yaml",
      "networks/b.yaml",
      "subnets/c.yaml",
      "kustomization.yaml",
      "account-secret.template.yaml",
    ]);
  });

  it("one YAML stream: the Account, then the manifests; the Secret only named", () => {
    const text = stream(output("kind"));
    expect(text).toContain(
      "# The Account below names Secret login (keys email, password): create it yourself.",
    );
    expect(text.split("---\n")).toHaveLength(4);
  });
});
