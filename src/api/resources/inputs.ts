import * as z from "zod";
import { parseInputValue } from "../../service-model/index.ts";
import type { ApiClient } from "../client.ts";
import { ApiError, ApiErrorCodes } from "../errors.ts";
import { listAll } from "../resource.ts";

export const inputSchema = z.looseObject({ name: z.string(), value: z.string() });
export type Input = z.output<typeof inputSchema>;

/**
 * Inputs of a deployment, server template or instance (`parentHref`). Writes use the
 * 2.0 hash notation (`inputs[NAME]=text:x`); every value is checked with the shared
 * input-notation parser first, so a malformed value fails here naming the input.
 */
export function inputsApi(client: ApiClient) {
  return {
    index: (parentHref: string, view: "default" | "inputs_2_0" = "inputs_2_0") =>
      listAll(client, `${parentHref}/inputs`, inputSchema, { view }),
    multiUpdate: async (parentHref: string, inputs: Record<string, string>) => {
      const path = `${parentHref}/inputs/multi_update`;
      for (const [name, value] of Object.entries(inputs)) {
        const parsed = parseInputValue(name, value, "2.0");
        if (!parsed.ok) {
          throw new ApiError({
            kind: "invalid",
            code: ApiErrorCodes.invalid,
            method: "PUT",
            href: path,
            cause: parsed.error,
            message: `PUT ${path}: ${parsed.error.message}`,
          });
        }
      }
      await client.call({ method: "PUT", path, form: { inputs } });
    },
  };
}
