import { describe, expect, it } from "vitest";
import { InvalidSpecError } from "../../runtime/sdk/index.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import type { TableDesired, TableObserved } from "../shared/table-kind.ts";
import { deploymentWarnings, normalizeInput } from "./inputs.ts";
import { deploymentKind } from "./kind.ts";
import { type DeploymentClient, deploymentSpecSchema } from "./schema.ts";

const D = "/api/deployments/7";
const rep = {
  name: "web",
  description: "Web tier",
  locked: false,
  server_tag_scope: "deployment",
  inputs: [
    { name: "APP_ENV", value: "text:production" },
    { name: "EMPTY", value: "blank" },
    { name: "SKIP", value: "ignore" },
  ],
  links: [{ rel: "self", href: D }],
};

/** A fake service: the deployment (its lock and inputs calls too), recording every call. */
function fake(items: object[] = [rep]) {
  const calls: string[] = [];
  const deployments = {
    ...fakeResource(items as never, calls, "/api/deployments/9"),
    lock: async (href: string) => void calls.push(`lock ${href}`),
    unlock: async (href: string) => void calls.push(`unlock ${href}`),
  };
  const inputs = {
    multiUpdate: async (href: string, values: object) =>
      void calls.push(`inputs ${href} ${JSON.stringify(values)}`),
  };
  return { client: { deployments, inputs } as unknown as DeploymentClient, calls };
}

const { client, calls } = fake();
const observed: TableObserved = (await deploymentKind.observe(client, D, { fields: {} }))!;

function desired(over: Record<string, unknown> = {}): TableDesired {
  return {
    name: "web",
    description: "Web tier",
    serverTagScope: "deployment",
    locked: false,
    fields: {},
    ...over,
  };
}

describe("deployment spec", () => {
  it("defaults name to metadata.name, policies and accountRef", async () => {
    const spec = deploymentSpecSchema.parse({});
    expect(spec).toMatchObject({
      locked: false,
      deletionPolicy: "Delete",
      managementPolicy: "Manage",
      accountRef: { name: "default" },
    });
    const d = await deploymentKind.desired(spec, desiredContext(client, "meta-name"));
    expect(d.name).toBe("meta-name");
  });

  it("rejects unknown fields and bad enums, naming the field", () => {
    const r = deploymentSpecSchema.safeParse({ serverTagScope: "global", colour: 1 });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join(".") || i.message);
    expect(paths?.join(" ")).toContain("serverTagScope");
  });

  it("validate() names a malformed input value", () => {
    const spec = deploymentSpecSchema.parse({ inputs: { BAD: "array:[oops]" } });
    expect(() => deploymentKind.validate?.(spec, { name: "x", namespace: "n" })).toThrow(InvalidSpecError);
    expect(() => deploymentKind.validate?.(spec, { name: "x", namespace: "n" })).toThrow(/spec\.inputs\.BAD/);
  });
});

describe("deployment diff", () => {
  const cases: { reason: string; desired: TableDesired; want: string[] }[] = [
    { reason: "in sync", desired: desired(), want: [] },
    { reason: "renamed", desired: desired({ name: "web2" }), want: ["name"] },
    { reason: "description changed", desired: desired({ description: "x" }), want: ["description"] },
    { reason: "description unmanaged when unset", desired: desired({ description: undefined }), want: [] },
    { reason: "tag scope", desired: desired({ serverTagScope: "account" }), want: ["serverTagScope"] },
    { reason: "lock", desired: desired({ locked: true }), want: ["locked"] },
    {
      reason: "input value changed",
      desired: desired({ inputs: { APP_ENV: "text:staging" } }),
      want: ["inputs"],
    },
    { reason: "blank spelled text: is equal", desired: desired({ inputs: { EMPTY: "text:" } }), want: [] },
    {
      reason: "ignore spellings are equal",
      desired: desired({ inputs: { SKIP: "ignore:$ignore" } }),
      want: [],
    },
    { reason: "inherit reads back as ignore", desired: desired({ inputs: { SKIP: "inherit" } }), want: [] },
    {
      reason: "unknown input names are not managed",
      desired: desired({ inputs: { NOPE: "text:x" } }),
      want: [],
    },
    {
      reason: "a resource group the deployment does not show (no resource_group link) is drift",
      desired: desired({ resourceGroupHref: "/api/resource_groups/1" }),
      want: ["resourceGroupHref"],
    },
  ];
  it.each(cases)("$reason", ({ desired, want }) => {
    expect(deploymentKind.diff(desired, observed).map((d) => d.field)).toEqual(want);
  });

  it("null description equals an empty desired one", () => {
    expect(deploymentKind.diff(desired({ description: "" }), { ...observed, description: null })).toEqual([]);
  });
});

describe("parameters", () => {
  it("update sends only the fields that differ", async () => {
    const d = desired({ name: "web2", locked: true });
    calls.length = 0;
    await deploymentKind.update(client, D, d, observed, deploymentKind.diff(d, observed));
    expect(calls).toEqual([`update ${D} {"name":"web2"}`, `lock ${D}`]);
  });

  it("update applies the changed inputs with multi_update, after the fields", async () => {
    const d = desired({ description: "x", inputs: { APP_ENV: "text:staging", EMPTY: "text:" } });
    const diff = deploymentKind.diff(d, observed);
    expect(diff[1]).toEqual({
      field: "inputs",
      desired: { APP_ENV: "text:staging" },
      observed: { APP_ENV: "text:production" },
    });
    calls.length = 0;
    await deploymentKind.update(client, D, d, observed, diff);
    expect(calls).toEqual([`update ${D} {"description":"x"}`, `inputs ${D} {"APP_ENV":"text:staging"}`]);
  });

  it("update moves the deployment to the desired resource group (the service updates it in place)", async () => {
    const d = desired({ resourceGroupHref: "/api/resource_groups/1" });
    const o = { ...observed, resourceGroupHref: "/api/resource_groups/2" };
    expect(deploymentKind.diff(d, o)).toEqual([
      { field: "resourceGroupHref", desired: "/api/resource_groups/1", observed: "/api/resource_groups/2" },
    ]);
    calls.length = 0;
    await deploymentKind.update(client, D, d, o, deploymentKind.diff(d, o));
    expect(calls).toEqual([`update ${D} {"resource_group_href":"/api/resource_groups/1"}`]);
    expect(deploymentKind.diff(d, { ...o, resourceGroupHref: "/api/resource_groups/1" })).toEqual([]);
    expect(deploymentKind.atProvider(o).resourceGroupHref).toBe("/api/resource_groups/2");
  });

  it("create sends the create fields", async () => {
    calls.length = 0;
    await deploymentKind.create(client, desired({ resourceGroupHref: "/api/resource_groups/1" }));
    expect(calls).toEqual([
      'create {"name":"web","description":"Web tier","server_tag_scope":"deployment","resource_group_href":"/api/resource_groups/1"}',
    ]);
  });

  it("normalizes input spellings", () => {
    expect(normalizeInput("a", "text:")).toBe("blank");
    expect(normalizeInput("a", "$ignore")).toBe("ignore");
    expect(normalizeInput("a", "text:x")).toBe("text:x");
  });

  it("atProvider shows what the service reports", () => {
    expect(deploymentKind.atProvider(observed)).toEqual({
      name: "web",
      description: "Web tier",
      locked: false,
      serverTagScope: "deployment",
      inputs: { APP_ENV: "text:production", EMPTY: "blank", SKIP: "ignore" },
    });
  });
});

describe("deploymentWarnings: inputs the service ignores", () => {
  const cases: {
    reason: string;
    desired: TableDesired;
    observed?: TableObserved;
    want: string[];
  }[] = [
    { reason: "no inputs in the spec", desired: desired(), want: [] },
    {
      reason: "every name is one the deployment has, whatever the value",
      desired: desired({ inputs: { APP_ENV: "text:staging", EMPTY: "text:" } }),
      want: [],
    },
    {
      reason: "names the deployment lacks, sorted, in one message saying what to do",
      desired: desired({ inputs: { ZED: "text:z", APP_ENV: "text:staging", DB_PASSWORD: "cred:DB" } }),
      want: [
        "spec.inputs: the deployment has no input named DB_PASSWORD, ZED, and the service ignores " +
          "inputs a deployment does not have; check the names, or remove them from spec.inputs",
      ],
    },
    {
      reason: "a deployment with no inputs at all (a new one): every name",
      desired: desired({ inputs: { APP_ENV: "text:production" } }),
      observed: { ...observed, inputs: {} },
      want: [expect.stringContaining("no input named APP_ENV,") as unknown as string],
    },
    {
      reason: "the inputs were not shown (another view): nothing can be said",
      desired: desired({ inputs: { APP_ENV: "text:production" } }),
      observed: { ...observed, inputs: null },
      want: [],
    },
    {
      reason: "a long list is cut after ten names",
      desired: desired({
        inputs: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`N${i + 10}`, "text:x"])),
      }),
      want: [
        expect.stringContaining(
          "N10, N11, N12, N13, N14, N15, N16, N17, N18, N19 and 2 more,",
        ) as unknown as string,
      ],
    },
  ];
  it.each(cases)("$reason", ({ desired: d, observed: o, want }) => {
    expect(deploymentWarnings(d, o ?? observed)).toEqual(want);
  });

  it("is the kind's warnings hook", () => {
    expect(deploymentKind.warnings).toBe(deploymentWarnings);
  });
});
