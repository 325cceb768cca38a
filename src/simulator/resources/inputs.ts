import { formatInputValue, parseInputsParameter } from "../../service-model/index.ts";
import type { RequestContext } from "../context.ts";
import { parameterError, resourceNotFound } from "../errors.ts";
import { defineResource } from "../resource.ts";
import { access } from "../roles.ts";
import type { CloudRecord } from "./clouds.ts";
import { renderInputs, type StoredInput } from "./deployments.ts";

/**
 * Inputs (spec 4.13) of deployments, server templates and instances: index (views `default`
 * and `inputs_2_0`) and `multi_update` (1.0 pairs or 2.0 hash, chosen by shape; existing
 * names get the new value, unknown names are ignored; `inherit` / 1.0 empty string store
 * `ignore`). Inputs live on their owner's record (`inputs: [{name, value}]`, value in 2.0).
 */

interface Owner {
  id: string;
  inputs: StoredInput[];
}

interface Prefix {
  base: string;
  load(ctx: RequestContext): Owner;
}

const PREFIXES: Prefix[] = [
  {
    base: "/api/deployments/:deployment_id/inputs",
    load: (ctx) =>
      ctx.store.collection<Owner>("deployments").require(ctx.param("deployment_id"), "Deployment"),
  },
  {
    base: "/api/server_templates/:server_template_id/inputs",
    load: (ctx) =>
      ctx.store
        .collection<Owner>("server_templates")
        .require(ctx.param("server_template_id"), "ServerTemplate"),
  },
  {
    base: "/api/clouds/:cloud_id/instances/:instance_id/inputs",
    load(ctx) {
      const cloud = ctx.store.collection<CloudRecord>("clouds").require(ctx.param("cloud_id"), "Cloud");
      const instance = ctx.store
        .collection<Owner & { cloud_id: string }>("instances")
        .get(ctx.param("instance_id"));
      if (!instance || instance.cloud_id !== cloud.id)
        throw resourceNotFound("Instance", ctx.param("instance_id"));
      return instance;
    },
  },
];

export const inputsResource = defineResource({
  name: "inputs",
  collections: {},
  register(sim) {
    // Not shown in the spec: reading needs observer, multi_update needs actor.
    for (const prefix of PREFIXES) {
      sim.route({
        method: "GET",
        path: prefix.base,
        access: access.anyOf("observer"),
        handler(ctx) {
          const view = ctx.view(["default", "inputs_2_0"]);
          const owner = prefix.load(ctx);
          return ctx.many("input", "inputs", renderInputs(owner.inputs, view));
        },
      });
      sim.route({
        method: "PUT",
        path: `${prefix.base}/multi_update`,
        access: access.anyOf("actor"),
        handler(ctx) {
          const owner = prefix.load(ctx);
          const parsed = parseInputsParameter(ctx.params.inputs);
          if (!parsed.ok) throw parameterError(parsed.error.message);
          const byName = new Map(owner.inputs.map((input) => [input.name, input]));
          for (const { name, value } of parsed.value.inputs) {
            const existing = byName.get(name);
            if (!existing) continue;
            existing.value = value.type === "inherit" ? "ignore" : formatInputValue(value);
          }
          return ctx.noContent();
        },
      });
    }
  },
});
