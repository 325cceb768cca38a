import { describe, expect, it } from "vitest";
import { evaluateJsonPath, humanDuration, parseJsonPath, toTable } from "./table.ts";

const NOW = new Date("2026-01-01T12:00:00Z");
const now = () => NOW;

const routeVersion = {
  name: "v1alpha1",
  served: true,
  storage: true,
  additionalPrinterColumns: [
    { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    {
      name: "Reason",
      type: "string",
      jsonPath: '.status.conditions[?(@.type=="Ready")].reason',
      priority: 1,
    },
    {
      name: "Destination",
      type: "string",
      jsonPath: ".spec.destinationCidrBlock",
      description: "Where it goes",
    },
    { name: "Priority", type: "integer", jsonPath: ".spec.cloudSpecificAttributes.priority" },
    { name: "Weight", type: "number", jsonPath: ".spec.weight" },
    { name: "Locked", type: "boolean", jsonPath: ".spec.locked" },
    { name: "First Tag", type: "string", jsonPath: ".spec.tags[0]" },
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
  ],
};

function route(name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: "cloud.svc.io/v1alpha1",
    kind: "Route",
    metadata: {
      name,
      namespace: "team-a",
      resourceVersion: "7",
      creationTimestamp: "2026-01-01T11:55:00Z",
      uid: "u1",
    },
    spec: {
      destinationCidrBlock: "0.0.0.0/0",
      cloudSpecificAttributes: { priority: 100 },
      weight: 1.5,
      locked: false,
      tags: ["edge", "b"],
    },
    status: {
      conditions: [
        { type: "Synced", status: "True", reason: "Ok" },
        { type: "Ready", status: "False", reason: "Creating" },
      ],
    },
    ...extra,
  };
}

describe("toTable with additionalPrinterColumns", () => {
  const table = toTable(
    routeVersion,
    [route("default-route")],
    { resourceVersion: "42", continue: "c1" },
    { now },
  ) as {
    kind: string;
    apiVersion: string;
    metadata: Record<string, unknown>;
    columnDefinitions: {
      name: string;
      type: string;
      format: string;
      description: string;
      priority: number;
    }[];
    rows: { cells: unknown[]; object: Record<string, unknown> }[];
  };

  it("is a meta.k8s.io/v1 Table carrying the list metadata", () => {
    expect(table.kind).toBe("Table");
    expect(table.apiVersion).toBe("meta.k8s.io/v1");
    expect(table.metadata).toEqual({ resourceVersion: "42", continue: "c1" });
  });

  it("puts Name first (format name) and then the printer columns with their types and priorities", () => {
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ["Name", "string", 0],
      ["Ready", "string", 0],
      ["Reason", "string", 1],
      ["Destination", "string", 0],
      ["Priority", "integer", 0],
      ["Weight", "number", 0],
      ["Locked", "boolean", 0],
      ["First Tag", "string", 0],
      ["Age", "date", 0],
    ]);
    expect(table.columnDefinitions[0]!.format).toBe("name");
    expect(table.columnDefinitions[3]!.description).toBe("Where it goes");
    expect(table.columnDefinitions[1]!.description).toBe(
      'Custom resource definition column (in JSONPath format): .status.conditions[?(@.type=="Ready")].status',
    );
  });

  it("evaluates each cell with JSONPath (filters, indexes) and types it; dates become ages", () => {
    expect(table.rows[0]!.cells).toEqual([
      "default-route",
      "False",
      "Creating",
      "0.0.0.0/0",
      100,
      1.5,
      false,
      "edge",
      "5m",
    ]);
  });

  it("carries the object as PartialObjectMetadata by default", () => {
    expect(table.rows[0]!.object).toEqual({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.k8s.io/v1",
      metadata: route("default-route").metadata,
    });
  });

  it("leaves a cell null when the path finds nothing", () => {
    const t = toTable(routeVersion, [route("r", { status: {} })], undefined, { now }) as {
      rows: { cells: unknown[] }[];
    };
    expect(t.rows[0]!.cells[1]).toBeNull();
  });
});

describe("toTable defaults", () => {
  const cases: {
    reason: string;
    version: object | undefined;
    objects: object[];
    columns: string[];
    cells: unknown[];
  }[] = [
    {
      reason: "a CRD version without printer columns gets Name and Age",
      version: { name: "v1" },
      objects: [route("a")],
      columns: ["Name", "Age"],
      cells: ["a", "5m"],
    },
    {
      reason: "Secrets show Type and Data like kube-apiserver (2h prints as 120m, as HumanDuration does)",
      version: undefined,
      objects: [
        {
          kind: "Secret",
          type: "Opaque",
          data: { a: "", b: "" },
          metadata: { name: "s", creationTimestamp: "2026-01-01T10:00:00Z" },
        },
      ],
      columns: ["Name", "Type", "Data", "Age"],
      cells: ["s", "Opaque", 2, "120m"],
    },
    {
      reason: "Namespaces show their phase",
      version: undefined,
      objects: [
        {
          kind: "Namespace",
          status: { phase: "Active" },
          metadata: { name: "team-a", creationTimestamp: "2025-12-30T12:00:00Z" },
        },
      ],
      columns: ["Name", "Status", "Age"],
      cells: ["team-a", "Active", "2d"],
    },
    {
      reason: "CRDs show their raw creation time (the default table convertor), not an age",
      version: undefined,
      objects: [
        {
          kind: "CustomResourceDefinition",
          metadata: { name: "routes.cloud.svc.io", creationTimestamp: "2026-01-01T11:00:00Z" },
        },
      ],
      columns: ["Name", "Created At"],
      cells: ["routes.cloud.svc.io", "2026-01-01T11:00:00Z"],
    },
  ];
  it.each(cases)("$reason", ({ version, objects, columns, cells }) => {
    const t = toTable(version, objects, undefined, { now }) as {
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    };
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(columns);
    expect(t.rows[0]!.cells).toEqual(cells);
  });

  it("falls back to Name and Created At when a printer column's JSONPath cannot be parsed (as the apiserver does)", () => {
    const broken = {
      name: "v1",
      additionalPrinterColumns: [{ name: "X", type: "string", jsonPath: ".spec[" }],
    };
    const t = toTable(broken, [route("a")], undefined, { now }) as {
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    };
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Created At"]);
    expect(t.rows[0]!.cells).toEqual(["a", "2026-01-01T11:55:00Z"]);
  });

  it("prints events like kube-apiserver: Last Seen, Type, Reason, Object, Message (the rest priority 1)", () => {
    const core = {
      kind: "Event",
      metadata: { name: "web.1", namespace: "team-a", creationTimestamp: "2026-01-01T11:00:00Z" },
      involvedObject: { kind: "Network", name: "main" },
      type: "Normal",
      reason: "Created",
      message: " created /api/networks/1 ",
      firstTimestamp: "2026-01-01T11:00:00Z",
      lastTimestamp: "2026-01-01T11:59:00Z",
      count: 3,
      source: { component: "svc-operator" },
    };
    const t = toTable(undefined, [core], undefined, { now }) as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    expect(t.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name)).toEqual([
      "Last Seen",
      "Type",
      "Reason",
      "Object",
      "Message",
    ]);
    expect(t.rows[0]!.cells).toEqual([
      "60s",
      "Normal",
      "Created",
      "network/main",
      "",
      "svc-operator",
      "created /api/networks/1",
      "60m",
      3,
      "web.1",
    ]);
    const modern = {
      kind: "Event",
      apiVersion: "events.k8s.io/v1",
      metadata: { name: "e2" },
      regarding: { kind: "Route", name: "r" },
      type: "Warning",
      reason: "ApiError",
      note: "boom",
      eventTime: "2026-01-01T11:59:30.000000Z",
      reportingController: "svc-operator",
      reportingInstance: "pod-1",
    };
    const t2 = toTable(undefined, [modern], undefined, { now }) as { rows: { cells: unknown[] }[] };
    expect(t2.rows[0]!.cells).toEqual([
      "30s",
      "Warning",
      "ApiError",
      "route/r",
      "",
      "svc-operator, pod-1",
      "boom",
      "30s",
      1,
      "e2",
    ]);
  });

  it("honours includeObject=Object and noHeaders", () => {
    const t = toTable({ name: "v1" }, [route("a")], undefined, {
      now,
      includeObject: "Object",
      noHeaders: true,
    }) as Record<string, unknown>;
    expect(t.columnDefinitions).toBeUndefined();
    expect((t.rows as { object: unknown }[])[0]!.object).toEqual(route("a"));
  });

  it("never throws on malformed objects", () => {
    const t = toTable(routeVersion, [null as unknown as object, { metadata: 5 }], undefined, { now }) as {
      rows: { cells: unknown[] }[];
    };
    expect(t.rows.map((r) => r.cells[0])).toEqual(["", ""]);
    expect(() => toTable(undefined, [null as unknown as object], undefined, { now })).not.toThrow();
  });

  it("uses a single object's resourceVersion when there is no list metadata", () => {
    const t = toTable({ name: "v1" }, [route("a")], undefined, { now }) as { metadata: unknown };
    expect(t.metadata).toEqual({ resourceVersion: "7" });
  });
});

describe("humanDuration (apimachinery duration.HumanDuration)", () => {
  const table: [number, string][] = [
    [-5_000, "<invalid>"],
    [-500, "0s"],
    [59_000, "59s"],
    [119_000, "119s"],
    [150_000, "2m30s"],
    [600_000, "10m"],
    [3 * 3600_000 + 5 * 60_000, "3h5m"],
    [30 * 3600_000, "30h"],
    [3 * 86400_000 + 3600_000, "3d1h"],
    [100 * 86400_000, "100d"],
    [3 * 365 * 86400_000 + 10 * 86400_000, "3y10d"],
    [10 * 365 * 86400_000, "10y"],
  ];
  it.each(table)("%d ms -> %s", (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });
});

describe("JSONPath subset", () => {
  const doc = {
    a: {
      b: [
        { k: "x", v: 1 },
        { k: "y", v: 2 },
      ],
      "dotted.key": "d",
    },
    n: 5,
  };
  const table: [string, unknown[]][] = [
    [".a.b[1].v", [2]],
    [".a.b[-1].k", ["y"]],
    [".a.b[*].k", ["x", "y"]],
    ['.a.b[?(@.k=="y")].v', [2]],
    [".a.b[?(@.v>1)].k", ["y"]],
    [".a.b[?(@.k)].v", [1, 2]],
    [".a['dotted.key']", ["d"]],
    ["{.n}", [5]],
    [".missing.deep", []],
    ["..k", ["x", "y"]],
    [".a.b[0:1].k", ["x"]],
    [".a.b[-1:].k", ["y"]],
    [".a.b[0,1].v", [1, 2]],
    [".a['b','dotted.key']", [doc.a.b, "d"]],
  ];
  it.each(table)("%s", (path, want) => {
    expect(evaluateJsonPath(parseJsonPath(path), doc)).toEqual(want);
  });
  it("rejects what it cannot parse", () => {
    expect(() => parseJsonPath(".a[?(foo)]")).toThrow();
  });
});
