import { describe, expect, it } from "vitest";
import { good } from "./alert-specs-helpers.ts";
import { startFileSimulator } from "./file-simulator.ts";
import { callsTo, expectRejected, type Rejection } from "./rejections.ts";

const h = await startFileSimulator();

describe("alert specs: rejected calls change nothing", () => {
  const without = (field: keyof typeof good) => {
    const copy: Record<string, string> = { ...good };
    delete copy[field];
    return copy;
  };
  const cases: Rejection[] = [
    {
      reason: "no alert_spec hash",
      method: "post",
      path: "/api/servers/1/alert_specs",
      form: { x: "1" },
      status: 400,
      text: /^ParameterError: alert_spec is required/,
    },
    ...(["condition", "duration", "file", "name", "threshold", "variable"] as const).map((field) => ({
      reason: `missing ${field}`,
      method: "post" as const,
      path: "/api/servers/1/alert_specs",
      form: { alert_spec: without(field) },
      status: 400,
      text: new RegExp(`^ParameterError: alert_spec\\[${field}\\] is required`),
    })),
    ...callsTo("post", "/api/servers/1/alert_specs", [
      {
        reason: "blank name",
        form: { alert_spec: { ...good, name: "" } },
        status: 400,
        text: /alert_spec\[name\] must not be blank/,
      },
      {
        reason: "condition not in the enum",
        form: { alert_spec: { ...good, condition: "=" } },
        status: 400,
        text: /alert_spec\[condition\] must be one of >, >=, <, <=, ==, !=/,
      },
      {
        reason: "duration with letters",
        form: { alert_spec: { ...good, duration: "5m" } },
        status: 400,
        text: /alert_spec\[duration\] must be digits only/,
      },
      {
        reason: "negative duration",
        form: { alert_spec: { ...good, duration: "-5" } },
        status: 400,
        text: /alert_spec\[duration\] must be digits only/,
      },
      {
        reason: "neither escalate nor vote",
        form: { alert_spec: without("escalation_name") },
        status: 400,
        text: /must either escalate or vote/,
      },
      {
        reason: "both escalate and vote",
        form: { alert_spec: { ...good, vote_type: "grow", vote_tag: "t" } },
        status: 400,
        text: /not both/,
      },
      {
        reason: "vote_type outside grow/shrink",
        form: { alert_spec: { ...without("escalation_name"), vote_type: "up", vote_tag: "t" } },
        status: 400,
        text: /alert_spec\[vote_type\] must be one of grow, shrink/,
      },
      {
        reason: "vote without vote_tag",
        form: { alert_spec: { ...without("escalation_name"), vote_type: "grow" } },
        status: 400,
        text: /alert_spec\[vote_tag\] is required when voting/,
      },
      {
        reason: "unknown member",
        form: { alert_spec: { ...good, colour: "red" } },
        status: 400,
        text: /alert_spec\[colour\] is not allowed/,
      },
    ]),
    {
      reason: "flat create without subject_href",
      method: "post",
      path: "/api/alert_specs",
      form: { alert_spec: good },
      status: 400,
      text: /alert_spec\[subject_href\] is required/,
    },
    {
      reason: "subject_href of another kind",
      method: "post",
      path: "/api/alert_specs",
      form: { alert_spec: { ...good, subject_href: "/api/deployments/1" } },
      status: 400,
      text: /alert_spec\[subject_href\] must be the href of a ServerTemplate, Server, ServerArray or Instance/,
    },
    {
      reason: "subject_href differing from the path",
      method: "post",
      path: "/api/servers/1/alert_specs",
      form: { alert_spec: { ...good, subject_href: "/api/server_arrays/1" } },
      status: 400,
      text: /must be the subject of the path/,
    },
    {
      reason: "subject_href of an unknown server",
      method: "post",
      path: "/api/alert_specs",
      form: { alert_spec: { ...good, subject_href: "/api/servers/999" } },
      status: 422,
      text: /^ResourceNotFound: Couldn't find Server with ID=999$/,
    },
    {
      reason: "unknown server in the path",
      method: "post",
      path: "/api/servers/999/alert_specs",
      form: { alert_spec: good },
      status: 422,
      text: /^ResourceNotFound: Couldn't find Server with ID=999$/,
    },
    {
      reason: "unknown instance in the path",
      method: "get",
      path: "/api/clouds/1/instances/999/alert_specs",
      status: 422,
      text: /^ResourceNotFound: Couldn't find Instance with ID=999$/,
    },
    ...callsTo("put", "/api/alert_specs/1", [
      {
        reason: "update with subject_href",
        form: { alert_spec: { subject_href: "/api/servers/1" } },
        status: 400,
        text: /alert_spec\[subject_href\] is not allowed/,
      },
      {
        reason: "update blanking a required field",
        form: { alert_spec: { threshold: "" } },
        status: 400,
        text: /alert_spec\[threshold\] must not be blank/,
      },
      {
        reason: "update duration not digits",
        form: { alert_spec: { duration: "1.5" } },
        status: 400,
        text: /alert_spec\[duration\] must be digits only/,
      },
      {
        reason: "update adding a vote to an escalating spec",
        form: { alert_spec: { vote_type: "grow", vote_tag: "t" } },
        status: 400,
        text: /not both/,
      },
    ]),
    {
      reason: "update of an unknown id",
      method: "put",
      path: "/api/alert_specs/999",
      form: { alert_spec: { name: "x" } },
      status: 422,
      text: /^ResourceNotFound: Couldn't find AlertSpec with ID=999$/,
    },
    {
      reason: "index with_inherited not a boolean word",
      method: "get",
      path: "/api/servers/1/alert_specs",
      query: { with_inherited: "yes" },
      status: 400,
      text: /with_inherited must be one of true, false/,
    },
    {
      reason: "index with an unknown filter",
      method: "get",
      path: "/api/alert_specs",
      query: { filter: ["condition==<"] },
      status: 400,
      text: /filter\[\] 'condition' is not a filter of this index/,
    },
    {
      reason: "index with an unknown view",
      method: "get",
      path: "/api/alert_specs",
      query: { view: "extended" },
      status: 400,
      text: /view must be one of default/,
    },
  ];
  expectRejected(() => h, cases);

  it("destroy of an unknown id is a 422 and changes nothing", async () => {
    const res = await h.expectUnchanged(() => h.admin.delete("/api/server_templates/1/alert_specs/999"));
    expect(res.status).toBe(422);
    expect(res.text).toBe("ResourceNotFound: Couldn't find AlertSpec with ID=999");
  });

  it("writes need the actor role", async () => {
    const res = await h.expectUnchanged(() =>
      h.user2.post("/api/servers/1/alert_specs", { form: { alert_spec: good } }),
    );
    expect(res.status).toBe(403);
  });
});
