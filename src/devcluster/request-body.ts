import { parse as parseYaml } from "yaml";
import { type ApiError, badRequest, fieldCause, invalid } from "./errors.ts";
import { clone, isObj, type Obj } from "./meta.ts";
import { apiVersionOf, type ResourceType } from "./types.ts";

/** Parses a request body (JSON, or YAML for create/update/apply) into an object, 400 when malformed. */
export function parseBody(raw: string, contentType: string): unknown {
  const media = contentType.split(";")[0]!.trim().toLowerCase();
  if (raw.trim() === "") throw badRequest("the request body is empty");
  try {
    if (media === "application/yaml" || media === "application/apply-patch+yaml") {
      // YAML 1.1, as the real server's decoder (go-yaml v2) reads it: `yes`, `on`, `y` are booleans.
      return parseYaml(raw, { maxAliasCount: 100, version: "1.1" });
    }
    return JSON.parse(raw);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw badRequest(`couldn't get version/kind; json parse error: ${message}`);
  }
}

/**
 * The body as this write's own stored-form copy, 400 when its apiVersion or kind is not the URL's:
 * the real server decodes the body into the URL's type and refuses what does not fit.
 */
export function objectFromBody(type: ResourceType, version: string, body: unknown): Obj {
  if (!isObj(body)) throw badRequest("Object 'Kind' is missing in the request body: expected an object");
  const expected = apiVersionOf(type.group, version);
  // A custom resource must name its apiVersion; a built-in's is the URL's when missing.
  if ((body.apiVersion !== undefined || type.custom) && body.apiVersion !== expected) {
    throw badRequest(
      `the API version in the data (${String(body.apiVersion ?? "")}) does not match the expected API version (${expected})`,
    );
  }
  if (body.kind !== undefined && body.kind !== type.kind && type.custom) {
    // The custom resource strategy's validation, which names the object by its own kind.
    const name = isObj(body.metadata) ? String(body.metadata.name ?? "") : "";
    throw invalid(String(body.kind), type.group, name, [
      fieldCause({
        type: "FieldValueInvalid",
        field: "kind",
        value: body.kind,
        detail: `must be ${type.kind}`,
      }),
    ]);
  }
  if (body.kind !== undefined && body.kind !== type.kind) {
    throw badRequest(
      `the kind in the data (${String(body.kind)}) does not match the expected kind (${type.kind})`,
    );
  }
  if (body.metadata !== undefined && !isObj(body.metadata)) {
    throw badRequest("json: cannot unmarshal into Go struct field Object.metadata of type v1.ObjectMeta");
  }
  const object = clone(body);
  const stored = type.fromServed ? type.fromServed(object) : object;
  return stored;
}

// Each verb decides for itself when a missing or empty name or namespace counts as a mismatch
// (as the real server's verbs do); only the answer is shared.

export function nameMismatch(objectName: unknown, urlName: string): ApiError {
  return badRequest(
    `the name of the object (${String(objectName)}) does not match the name on the URL (${urlName})`,
  );
}

export function namespaceMismatch(): ApiError {
  return badRequest("the namespace of the provided object does not match the namespace sent on the request");
}
