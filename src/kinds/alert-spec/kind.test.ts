import { describe, expect, it } from "vitest";
import { admitter } from "../shared/admission.testing.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import { alertSpecKind, createAlertSpecKind } from "./kind.ts";
import { SubjectMetrics } from "./metrics.ts";
import { type AlertSpecClient, alertSpecSpecSchema } from "./schema.ts";

const SERVER = "/api/servers/1";
const rep = (id: number, over: Record<string, unknown> = {}, subject = SERVER) => ({
  name: "cpu",
  description: null,
  duration: 5,
  threshold: "10",
  condition: "<",
  file: "cpu-0/cpu-idle",
  variable: "value",
  escalation_name: "critical",
  vote_tag: null,
  vote_type: null,
  links: [
    { rel: "self", href: `/api/alert_specs/${id}` },
    { rel: "subject", href: subject },
  ],
  ...over,
});

function fake(items: ReturnType<typeof rep>[] = []) {
  const calls: string[] = [];
  const client = {
    alertSpecs: fakeResource(items, calls, "/api/alert_specs/9"),
  } as unknown as AlertSpecClient;
  return { client, calls };
}

const ctx = <C>(client: C) => desiredContext(client, "cpu");

const base = {
  subjectHref: SERVER,
  file: "cpu-0/cpu-idle",
  variable: "value",
  condition: "<",
  threshold: "10",
  duration: 5,
  escalationName: "critical",
};
const spec = alertSpecSpecSchema.parse(base);
/** The spec without escalating: the shape of a voting one. */
const { escalationName: _, ...silent } = base;

describe("AlertSpec", () => {
  it("creates with the subject and every member, the duration as digits; listed account-wide", async () => {
    const { client, calls } = fake();
    await alertSpecKind.create(client, await alertSpecKind.desired(spec, ctx(client)));
    expect(calls).toEqual([
      'create {"subject_href":"/api/servers/1","name":"cpu","file":"cpu-0/cpu-idle","variable":"value",' +
        '"condition":"<","threshold":"10","duration":"5","escalation_name":"critical"}',
    ]);
    expect(alertSpecKind.index?.scope(spec, {})).toBe("");
    expect(alertSpecKind.immutable).toEqual(["subjectHref"]);
    expect(alertSpecKind.links?.(spec)).toEqual([{ field: "subjectHref", href: SERVER }]);
  });

  it("shows what the service holds; an update sends only what changed", async () => {
    const { client, calls } = fake([rep(1)]);
    const d = await alertSpecKind.desired({ ...spec, threshold: "5", duration: 10 }, ctx(client));
    const o = (await alertSpecKind.observe(client, "/api/alert_specs/1", d))!;
    expect(alertSpecKind.atProvider(o)).toEqual({ ...base, name: "cpu" });
    const diff = alertSpecKind.diff(d, o);
    expect(diff.map((x) => x.field)).toEqual(["threshold", "duration"]);
    await alertSpecKind.update(client, o.href, d, o, diff);
    expect(calls).toEqual(['update /api/alert_specs/1 {"threshold":"5","duration":"10"}']);
  });

  it("switching from escalating to voting sets the vote and clears the escalation, in one call", async () => {
    const { client, calls } = fake([rep(1)]);
    const voting = alertSpecSpecSchema.parse({ ...silent, voteTag: "web", voteType: "grow" });
    const d = await alertSpecKind.desired(voting, ctx(client));
    const o = (await alertSpecKind.observe(client, "/api/alert_specs/1", d))!;
    const diff = alertSpecKind.diff(d, o);
    expect(diff.map((x) => x.field)).toEqual(["escalationName", "voteTag", "voteType"]);
    await alertSpecKind.update(client, o.href, d, o, diff);
    expect(calls).toEqual([
      'update /api/alert_specs/1 {"escalation_name":"","vote_tag":"web","vote_type":"grow"}',
    ]);
  });

  it("a lost create is found by subject and exact name", async () => {
    const { client, calls } = fake([rep(1), rep(2, { name: "cpu-2" }), rep(3, {}, "/api/servers/2")]);
    const d = await alertSpecKind.desired(spec, ctx(client));
    expect((await alertSpecKind.lookup(client, d)).map((o) => o.href)).toEqual(["/api/alert_specs/1"]);
    expect(calls).toEqual(['index {"subject_href":"/api/servers/1","name":"cpu"}']);
  });

  it("checks the metric before a create and before an update of file or variable, not otherwise", async () => {
    const checked: string[] = [];
    const metrics = new SubjectMetrics();
    metrics.check = async (_client, alert) => void checked.push(`${alert.file}.${alert.variable}`);
    const kind = createAlertSpecKind({ metrics });
    const { client } = fake();
    const d = await kind.desired(spec, ctx(client));
    await kind.beforeWrite!(client, d);
    await kind.beforeWrite!(client, d, ["threshold", "description"]);
    await kind.beforeWrite!(client, d, ["threshold", "variable"]);
    expect(checked).toEqual(["cpu-0/cpu-idle.value", "cpu-0/cpu-idle.value"]);
  });
});

describe("AlertSpec admission (CEL)", () => {
  const admit = admitter(alertSpecKind);
  it.each([
    {
      reason: "neither escalating nor voting",
      spec: silent,
      field: "spec.escalationName",
    },
    {
      reason: "escalating and voting",
      spec: { ...base, voteTag: "web", voteType: "grow" },
      field: "spec.escalationName",
    },
    {
      reason: "a vote without its tag",
      spec: { ...silent, voteType: "shrink" },
      field: "spec.voteTag",
    },
    { reason: "a condition outside the enum", spec: { ...base, condition: "=>" }, field: "spec.condition" },
    {
      reason: "a vote type outside the enum",
      spec: { ...silent, voteTag: "w", voteType: "up" },
      field: "spec.voteType",
    },
    { reason: "a fractional duration", spec: { ...base, duration: 2.5 }, field: "spec.duration" },
    { reason: "no subject", spec: (({ subjectHref: _s, ...rest }) => rest)(base), field: "spec.subjectHref" },
  ])("refuses $reason, naming $field", ({ spec, field }) => {
    expect(admit(spec).map((c) => c.field)).toContain(field);
  });

  it("refuses a change of subject and accepts a change of everything else", () => {
    expect(admit({ ...base, subjectHref: "/api/servers/2" }, base).map((c) => c.field)).toContain(
      "spec.subjectHref",
    );
    expect(admit({ ...silent, voteTag: "web", voteType: "grow", file: "load/load" }, base)).toEqual([]);
  });
});
