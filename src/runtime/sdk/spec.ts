import * as z from "zod";
import { HREF_PATTERN, hrefProblem, MAX_HREF_LENGTH } from "./canonical-href.ts";

/**
 * Building blocks every managed kind's spec uses: the Account reference, the
 * deletion and management policies, references to other custom resources and
 * the CEL rules for "exactly one of" and "immutable".
 */

export interface CelRule {
  rule: string;
  message: string;
  fieldPath?: string;
  reason?: "FieldValueInvalid" | "FieldValueForbidden" | "FieldValueRequired" | "FieldValueDuplicate";
}

export const accountRef = z
  .object({
    name: z
      .string()
      .min(1)
      .max(253)
      .default("default")
      .describe("Name of an Account in the same namespace that holds the service endpoint and credentials."),
  })
  .strict()
  .default({ name: "default" })
  .describe("The Account whose credentials are used; defaults to the Account named `default`.");

export const deletionPolicy = z
  .enum(["Delete", "Orphan"])
  .default("Delete")
  .describe("Delete removes the service object when this resource is deleted; Orphan leaves it in place.");

export const managementPolicy = z
  .enum(["Manage", "ObserveOnly"])
  .default("Manage")
  .describe(
    "Manage creates, updates and deletes the service object; ObserveOnly only reports it in status.atProvider " +
      "(set the cloud.svc.io/href annotation to name it) and never writes.",
  );

/** A reference to another custom resource of `kind` in the same namespace. */
export function ref(kind: string, description?: string) {
  return z
    .object({ name: z.string().min(1).max(253).describe(`Name of the ${kind} in the same namespace.`) })
    .strict()
    .describe(description ?? `A ${kind} custom resource in the same namespace; waits until it is Ready.`);
}

/**
 * A service href such as /api/clouds/1, in its one canonical spelling (canonical-href.ts): the
 * CRD's pattern refuses what a pattern can say, the rest is InvalidHref (parseSpec).
 */
export function href(what: string) {
  return z
    .string()
    .max(MAX_HREF_LENGTH)
    .meta({ pattern: HREF_PATTERN })
    .superRefine((text, ctx) => {
      const problem = hrefProblem(text);
      if (problem) ctx.addIssue({ code: "custom", message: `${text} ${problem}`, params: INVALID_HREF });
    })
    .describe(`Href of ${what} in the service, exactly as the API shows it (/api/...).`);
}

/** Marks a zod issue as an href not in canonical form: parseSpec makes it InvalidHref, not InvalidSpec. */
export const INVALID_HREF = { reason: "InvalidHref" } as const;

/** The spec object of a managed kind: the kind's fields plus accountRef and both policies. */
export function managedSpec<T extends z.ZodRawShape>(shape: T, rules: CelRule[] = [], description?: string) {
  const schema = z
    .object({ ...shape, accountRef, deletionPolicy, managementPolicy })
    .strict()
    .describe(description ?? "Desired state of the service object.");
  return rules.length > 0 ? schema.meta({ "x-kubernetes-validations": rules }) : schema;
}

/** CEL: exactly one (or, when optional, at most one) of the fields is set. */
export function exactlyOne(fields: string[], required = true): CelRule {
  const sum = fields.map((f) => `(has(self.${f}) ? 1 : 0)`).join(" + ");
  return {
    rule: required ? `${sum} == 1` : `${sum} <= 1`,
    message: required
      ? `exactly one of ${fields.join(", ")} must be set`
      : `at most one of ${fields.join(", ")} may be set`,
  };
}

/** CEL: `field` is required where `rule` (which holds when all is well) says so; the message names it. */
export function requiredWhere(field: string, rule: string, message: string): CelRule {
  return { rule, message, fieldPath: `.${field}`, reason: "FieldValueRequired" };
}

/** CEL transition rule on the parent: `field` cannot change once set (nor be added or removed). */
export function immutable(field: string): CelRule {
  return {
    rule: `has(oldSelf.${field}) == has(self.${field}) && (!has(self.${field}) || self.${field} == oldSelf.${field})`,
    message: `${field} is immutable: create a new resource to change it`,
    fieldPath: `.${field}`,
  };
}
