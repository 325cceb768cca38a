import { describe, expect, it } from "vitest";
import { type Field, FieldTable } from "./table.ts";

type Rec = Record<string, unknown>;

/** One row of each kind the table knows, in the order a diff reports them. */
const rows: Field<Rec, Rec>[] = [
  {
    spec: "cloudHref",
    from: (d) => String(d.cloudField ?? "cloudHref"),
    link: "cloud",
    write: "create",
    empty: "unshown",
  },
  { spec: "name", param: "name", attribute: "name", write: "update", always: true },
  { spec: "description", param: "description", attribute: "description", write: "update", empty: "blank" },
  { spec: "size", param: "size", attribute: "size", toParam: String, fromApi: Number, write: "create" },
  { spec: "networkHref", param: "network_href", link: "network", write: "afterCreate", empty: "none" },
  { spec: "locked", attribute: "locked", write: "kind" },
  { spec: "settings", param: "settings", write: "create" },
  { spec: "state", attribute: "state", write: "read" },
  {
    spec: "tenancy",
    param: "instance_tenancy",
    attribute: "instance_tenancy",
    observed: "tenancy_raw",
    at: "tenancy",
    write: "create",
  },
];
const table = new FieldTable<Rec, Rec>(rows);

const representation = {
  name: "a",
  description: null,
  size: "10",
  locked: false,
  state: "available",
  instance_tenancy: "default",
  links: [
    { rel: "self", href: "/api/things/1" },
    { rel: "cloud", href: "/api/clouds/1" },
    { rel: "network", href: "/api/networks/1" },
  ],
};
const observed = table.observe(representation, { extra: 1 });
const inSync: Rec = {
  cloudHref: "/api/clouds/1",
  name: "a",
  size: 10,
  networkHref: "/api/networks/1",
  locked: false,
};

describe("FieldTable.observe", () => {
  it("reads each row's attribute (null when absent, converted) or link (undefined when absent), and adds extras", () => {
    expect(observed).toEqual({
      href: "/api/things/1",
      cloudHref: "/api/clouds/1",
      name: "a",
      description: null,
      size: 10,
      networkHref: "/api/networks/1",
      locked: false,
      state: "available",
      tenancy_raw: "default",
      extra: 1,
    });
    expect(table.observe({ links: [{ rel: "self", href: "/x" }] }).cloudHref).toBeUndefined();
  });
});

describe("FieldTable.diff", () => {
  const cases: { reason: string; desired: Rec; observed?: Rec; want: Rec[] }[] = [
    { reason: "in sync", desired: inSync, want: [] },
    {
      reason: "unmanaged: a set value differs, reported with the observed value",
      desired: { ...inSync, name: "b" },
      want: [{ field: "name", desired: "b", observed: "a" }],
    },
    { reason: "unmanaged: unset is not compared", desired: { ...inSync, name: undefined }, want: [] },
    {
      reason: "unmanaged: null in the service is a value like any other (null, never undefined)",
      desired: { ...inSync, size: 20 },
      observed: { size: undefined },
      want: [{ field: "size", desired: 20, observed: null }],
    },
    { reason: "blank: '' matches null", desired: { ...inSync, description: "" }, want: [] },
    {
      reason: "blank: a text differs from null, which reads as ''",
      desired: { ...inSync, description: "x" },
      want: [{ field: "description", desired: "x", observed: "" }],
    },
    {
      reason: "unshown: a link the service does not show is not held against the spec",
      desired: { ...inSync, cloudHref: "/api/clouds/2" },
      observed: { cloudHref: undefined },
      want: [],
    },
    {
      reason: "unshown: a shown value that differs is reported under the spec field used",
      desired: { ...inSync, cloudHref: "/api/clouds/2", cloudField: "cloud" },
      want: [{ field: "cloud", desired: "/api/clouds/2", observed: "/api/clouds/1" }],
    },
    {
      reason: "none: unset means none (detach)",
      desired: { ...inSync, networkHref: undefined },
      want: [{ field: "networkHref", desired: null, observed: "/api/networks/1" }],
    },
    {
      reason: "none: unset and absent agree",
      desired: { ...inSync, networkHref: undefined },
      observed: { networkHref: undefined },
      want: [],
    },
    {
      reason: "kind rows are compared (the kind sends them itself)",
      desired: { ...inSync, locked: true },
      want: [{ field: "locked", desired: true, observed: false }],
    },
    {
      reason: "read rows and write-only rows are never compared",
      desired: { ...inSync, state: "x", settings: { a: "1" } },
      want: [],
    },
    {
      reason: "the observed and atProvider keys may differ from the spec field",
      desired: { ...inSync, tenancy: "dedicated" },
      want: [{ field: "tenancy", desired: "dedicated", observed: "default" }],
    },
  ];
  it.each(cases)("$reason", ({ desired, observed: over, want }) => {
    expect(table.diff(desired, { ...observed, ...over })).toEqual(want);
  });
});

describe("FieldTable parameters", () => {
  it("create sends the create and update rows that are set, converted; never afterCreate, kind or read rows", () => {
    expect(
      table.createParams({ ...inSync, description: "d", settings: { a: "1" }, tenancy: "dedicated" }),
    ).toEqual({
      name: "a",
      description: "d",
      size: "10",
      settings: { a: "1" },
      instance_tenancy: "dedicated",
    });
  });

  it("update sends exactly the changed updatable rows, plus the rows the API requires every time", () => {
    const desired = { ...inSync, description: "x", networkHref: "/api/networks/2" };
    expect(table.updateParams(table.diff(desired, observed), desired)).toEqual({
      name: "a",
      description: "x",
      network_href: "/api/networks/2",
    });
    expect(table.updateParams([], inSync)).toEqual({});
    expect(table.updateParams([{ field: "size", desired: 20, observed: 10 }], inSync)).toEqual({});
  });

  it("update clears a blank or none row with '' (a detach)", () => {
    const detached = { ...inSync, networkHref: undefined };
    expect(table.updateParams(table.diff(detached, observed), detached)).toEqual({
      name: "a",
      network_href: "",
    });
    const cleared = { ...inSync, description: "" };
    expect(table.updateParams([{ field: "description", desired: "", observed: "x" }], cleared)).toEqual({
      name: "a",
      description: "",
    });
  });
});

describe("FieldTable atProvider and writeOnly", () => {
  it("atProvider shows every shown or read row by its atProvider key, without nulls", () => {
    expect(table.atProvider(observed)).toEqual({
      cloudHref: "/api/clouds/1",
      name: "a",
      size: 10,
      networkHref: "/api/networks/1",
      locked: false,
      state: "available",
      tenancy: "default",
    });
  });

  it("a write-only row that echoes is shown as last applied; one that does not never is", () => {
    const echoing = new FieldTable<Rec, Rec>([
      { spec: "settings", param: "settings", write: "create", echo: true },
      { spec: "volumeTypeHref", param: "volume_type_href", write: "create" },
    ]);
    const applied = { settings: { a: "1" }, volumeTypeHref: "/api/clouds/1/volume_types/2" };
    expect(echoing.atProvider({}, applied)).toEqual({ settings: { a: "1" } });
    // Nothing applied by the operator (an object adopted by href): nothing to echo.
    expect(echoing.atProvider({})).toEqual({});
    expect(echoing.writeOnlyFields).toEqual(["settings", "volumeTypeHref"]);
  });

  it("writeOnly lists the rows the service never shows", () => {
    expect(table.writeOnlyFields).toEqual(["settings"]);
    expect(table.writeOnly({ settings: { a: "1" } })).toEqual({ settings: { a: "1" } });
  });

  it("a row's `read` reads a value no attribute or link shows (the collection's cloud), and is not write-only", () => {
    const own = new FieldTable<Rec, Rec>([{ spec: "cloudHref", read: (o) => o.scope, write: "create" }]);
    expect(own.diff({ cloudHref: "/api/clouds/2" }, { scope: "/api/clouds/1" })).toEqual([
      { field: "cloudHref", desired: "/api/clouds/2", observed: "/api/clouds/1" },
    ]);
    expect(own.writeOnlyFields).toEqual([]);
    expect(own.atProvider({ scope: "/api/clouds/1" })).toEqual({ cloudHref: "/api/clouds/1" });
  });

  it("a row's own `diff` (a set in any order) and `change` (the update sends what changed)", () => {
    const asSet = (v: unknown) => new Set((v as string[] | null) ?? []);
    const allowed = new FieldTable<Rec, Rec>([
      {
        spec: "allowed",
        param: "allowed",
        attribute: "allowed",
        write: "update",
        diff: (want, have) => {
          const [w, h] = [asSet(want), asSet(have)];
          const same = w.size === h.size && [...w].every((x) => h.has(x));
          return same ? undefined : { desired: [...w], observed: [...h] };
        },
        change: (d) => ({
          add: (d.desired as string[]).filter((x) => !asSet(d.observed).has(x)),
          remove: (d.observed as string[]).filter((x) => !asSet(d.desired).has(x)),
        }),
      },
    ]);
    const shown = allowed.observe({ allowed: ["a", "b"], links: [{ rel: "self", href: "/x/1" }] } as never);
    expect(allowed.diff({ allowed: ["b", "a"] }, shown)).toEqual([]);
    expect(allowed.diff({}, shown)).toEqual([]);
    expect(allowed.diff({ allowed: [] }, { ...shown, allowed: null })).toEqual([]);
    const diff = allowed.diff({ allowed: ["b", "c"] }, shown);
    expect(diff).toEqual([{ field: "allowed", desired: ["b", "c"], observed: ["a", "b"] }]);
    expect(allowed.updateParams(diff, { allowed: ["b", "c"] })).toEqual({
      allowed: { add: ["c"], remove: ["a"] },
    });
  });

  it("`compare`: the diff compares the fingerprint the service shows, the parameter carries the value", () => {
    const upload = new FieldTable<Rec, Rec>([
      {
        spec: "content",
        param: "content",
        attribute: "digest",
        at: false,
        write: "update",
        compare: (v) => `len-${String(v).length}`,
      },
    ]);
    const shown = upload.observe({ digest: "len-3", links: [{ rel: "self", href: "/api/x/1" }] } as never);
    expect(upload.diff({ content: "abc" }, shown)).toEqual([]);
    const diff = upload.diff({ content: "abcd" }, shown);
    expect(diff).toEqual([{ field: "content", desired: "len-4", observed: "len-3" }]);
    expect(upload.updateParams(diff, { content: "abcd" })).toEqual({ content: "abcd" });
    expect(upload.createParams({ content: "abcd" })).toEqual({ content: "abcd" });
    expect(upload.writeOnlyFields).toEqual([]);
    expect(upload.atProvider(shown)).toEqual({});
  });
});
