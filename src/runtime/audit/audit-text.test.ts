import { describe, expect, it } from "vitest";
import {
  type AuditChange,
  type AuditContext,
  changedFields,
  createdFields,
  detailText,
  fieldLines,
  MASK,
  MAX_SUMMARY,
  shownValue,
  summaryText,
} from "./audit-text.ts";

const context: AuditContext = {
  identity: "svc-operator-7d9f-abcde",
  kind: "Deployment",
  namespace: "team-a",
  name: "web",
  reconcileId: "1a2b3c4d",
  writeOnly: [],
};
const AT = Date.UTC(2026, 10, 25, 10, 24, 58);

describe("shownValue: what a value looks like in the detail, secrets masked", () => {
  const cases: { reason: string; path: string[]; value: unknown; writeOnly?: string[]; shown: string }[] = [
    { reason: "a string is quoted", path: ["description"], value: "Web tier", shown: '"Web tier"' },
    { reason: "a newline cannot start a line of its own", path: ["d"], value: "a\nb", shown: '"a\\nb"' },
    { reason: "a number and a boolean as JSON", path: ["size"], value: 100, shown: "100" },
    { reason: "false is a value, not nothing", path: ["locked"], value: false, shown: "false" },
    { reason: "an unset value", path: ["description"], value: undefined, shown: "(none)" },
    { reason: "null is unset too", path: ["description"], value: null, shown: "(none)" },
    {
      reason: "a credential input keeps its type, never the credential's name",
      path: ["inputs", "DB"],
      value: "cred:DB_PASSWORD_PROD",
      shown: '"cred:***"',
    },
    {
      reason: "a private key input is masked like a credential",
      path: ["inputs", "SSH"],
      value: "key:deploy-key:1",
      shown: '"key:***"',
    },
    {
      reason: "an array input holding a credential is masked whole",
      path: ["inputs", "LIST"],
      value: 'array:["text:a","cred:B"]',
      shown: '"array:***"',
    },
    {
      reason: "an array input of text is shown",
      path: ["inputs", "HOSTS"],
      value: 'array:["text:a"]',
      shown: '"array:[\\"text:a\\"]"',
    },
    {
      reason: "an input whose name says password is masked even as text",
      path: ["inputs", "DB_PASSWORD"],
      value: "text:hunter2",
      shown: MASK,
    },
    {
      reason: "a field the kind marks write-only is masked",
      path: ["settings"],
      value: { iops: "3000" },
      writeOnly: ["settings"],
      shown: MASK,
    },
    {
      reason: "below a write-only field too",
      path: ["settings", "iops"],
      value: "3000",
      writeOnly: ["settings"],
      shown: MASK,
    },
    {
      reason: "an Account's credentials never appear (by name)",
      path: ["oauth", "refreshToken"],
      value: "dev-refresh-token",
      shown: MASK,
    },
    { reason: "a secret-named field", path: ["apiKey"], value: "abc", shown: MASK },
    {
      reason: "an object shown whole has its secret members masked",
      path: ["inputs"],
      value: { A: "text:x", B: "cred:Y", TOKEN: "text:t" },
      shown: '{"A":"text:x","B":"cred:***","TOKEN":"***"}',
    },
    {
      reason: "a name merely containing 'pass' is not a secret",
      path: ["bypassCache"],
      value: true,
      shown: "true",
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      expect(shownValue(c.path, c.value, c.writeOnly ?? [])).toBe(c.shown);
    });
  }

  it("cuts a long value and says how much was cut", () => {
    const shown = shownValue(["description"], "x".repeat(500), []);
    expect(shown.length).toBeLessThan(260);
    expect(shown).toMatch(/\.\.\. \(302 more characters\)$/);
  });
});

describe("fieldLines: one line per field changed", () => {
  const cases: {
    reason: string;
    field: Parameters<typeof fieldLines>[0];
    withOld: boolean;
    lines: string[];
  }[] = [
    {
      reason: "an update shows old -> new",
      field: { field: "description", old: "before", new: "after" },
      withOld: true,
      lines: ['  description: "before" -> "after"'],
    },
    {
      reason: "a value set for the first time was (none)",
      field: { field: "description", old: undefined, new: "after" },
      withOld: true,
      lines: ['  description: (none) -> "after"'],
    },
    {
      reason: "a create shows the value alone",
      field: { field: "cidrBlock", new: "10.0.0.0/16" },
      withOld: false,
      lines: ['  cidrBlock: "10.0.0.0/16"'],
    },
    {
      reason: "a created reference lists its members",
      field: { field: "networkRef", new: { name: "main" } },
      withOld: false,
      lines: ['  networkRef.name: "main"'],
    },
    {
      reason: "inputs: only the inputs that changed, one line each, credentials masked",
      field: {
        field: "inputs",
        old: { APP_ENV: "text:staging", DB: "cred:OLD", SAME: "text:x" },
        new: { APP_ENV: "text:production", DB: "cred:NEW", SAME: "text:x" },
      },
      withOld: true,
      lines: [
        '  inputs.APP_ENV: "text:staging" -> "text:production"',
        '  inputs.DB: "cred:***" -> "cred:***"',
      ],
    },
    {
      reason: "a write-only field changed: that it changed, never the values",
      field: { field: "settings", old: { iops: "1" }, new: { iops: "2" } },
      withOld: true,
      lines: ["  settings.iops: *** -> ***"],
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      expect(fieldLines(c.field, ["settings"], c.withOld)).toEqual(c.lines);
    });
  }
});

describe("detailText", () => {
  it("says when, who, what, to which resource and in which reconcile; one line per field", () => {
    const changes: AuditChange[] = [
      {
        action: "updated",
        auditee: "/api/deployments/3",
        at: AT,
        fields: changedFields([
          { field: "description", desired: "after", observed: "before" },
          { field: "inputs", desired: { DB: "cred:NEW" }, observed: { DB: "cred:OLD" } },
        ]),
      },
    ];
    expect(detailText(context, changes)).toBe(
      "2026-11-25T10:24:58.000Z svc-operator-7d9f-abcde updated Deployment team-a/web; reconcile 1a2b3c4d\n" +
        '  description: "before" -> "after"\n' +
        '  inputs.DB: "cred:***" -> "cred:***"\n',
    );
  });

  it("a create lists the spec's object fields, not how the operator manages it", () => {
    const spec = {
      accountRef: { name: "default" },
      deletionPolicy: "Delete",
      managementPolicy: "Manage",
      description: "Web tier",
      inputs: { DB_PASSWORD: "cred:DB_PASSWORD" },
      resourceGroupHref: undefined,
    };
    const text = detailText(context, [
      { action: "created", auditee: "/api/deployments/3", at: AT, fields: createdFields(spec) },
    ]);
    expect(text).toBe(
      "2026-11-25T10:24:58.000Z svc-operator-7d9f-abcde created Deployment team-a/web; reconcile 1a2b3c4d\n" +
        '  description: "Web tier"\n' +
        "  inputs.DB_PASSWORD: ***\n",
    );
    expect(text).not.toMatch(/accountRef|deletionPolicy|managementPolicy|DB_PASSWORD"/);
  });

  it("several changes of one reconcile are one chunk; a note says why", () => {
    const text = detailText(context, [
      { action: "created", auditee: "/api/deployments/3", at: AT, fields: [] },
      {
        action: "updated",
        auditee: "/api/deployments/3",
        at: AT,
        fields: [{ field: "locked", old: false, new: true }],
      },
      { action: "deleted", auditee: "/api/deployments/3", at: AT, fields: [], note: "superseded" },
    ]);
    expect(text.split("\n")).toEqual([
      expect.stringMatching(/ created Deployment team-a\/web; reconcile 1a2b3c4d$/),
      expect.stringMatching(/ updated Deployment team-a\/web; /),
      "  locked: false -> true",
      expect.stringMatching(/ deleted Deployment team-a\/web \(superseded\); /),
      "",
    ]);
  });

  it("a drift correction says so", () => {
    const text = detailText(context, [
      {
        action: "driftCorrected",
        auditee: "/api/deployments/3",
        at: AT,
        fields: [{ field: "description", old: "hand edit", new: "Web tier" }],
      },
    ]);
    expect(text).toMatch(
      / corrected drift of Deployment team-a\/web; reconcile 1a2b3c4d\n {2}description: "hand edit" -> "Web tier"\n$/,
    );
  });
});

describe("summaryText: the latest change, 1 to 255 characters", () => {
  const change = (action: AuditChange["action"], fields: string[] = []): AuditChange => ({
    action,
    auditee: "/api/deployments/3",
    at: AT,
    fields: fields.map((field) => ({ field, old: 1, new: 2 })),
  });
  const cases: { reason: string; changes: AuditChange[]; summary: string }[] = [
    {
      reason: "a create names the resource",
      changes: [change("created")],
      summary: "svc-operator created Deployment team-a/web",
    },
    {
      reason: "an update names its fields",
      changes: [change("updated", ["description", "locked"])],
      summary: "svc-operator updated Deployment team-a/web: description, locked",
    },
    {
      reason: "a create and the update that follows it read as one",
      changes: [change("created"), change("updated", ["locked"])],
      summary: "svc-operator created Deployment team-a/web, then updated locked",
    },
    {
      reason: "a delete",
      changes: [change("deleted")],
      summary: "svc-operator deleted Deployment team-a/web",
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      expect(summaryText(context, c.changes)).toBe(c.summary);
    });
  }

  it("never over 255 characters (code points), however many fields", () => {
    const many = Array.from({ length: 100 }, (_, i) => `fieldNumber${i}é`);
    const summary = summaryText(context, [change("updated", many)]);
    expect([...summary].length).toBe(MAX_SUMMARY);
    expect(summary.endsWith("...")).toBe(true);
  });
});
