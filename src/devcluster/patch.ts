import jsonpatch from "fast-json-patch";
import { ApiError, badRequest } from "./errors.ts";
import { clone, isObj, type Obj } from "./meta.ts";

/** RFC 7386 JSON merge patch: objects merge, null deletes, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return clone(patch);
  const result: Obj = isObj(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key === "__proto__") continue; // JSON.parse makes it an own key; assigning it would swap the prototype
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/**
 * Strategic merge patch for the built-in kinds served here (namespaces, secrets, configmaps,
 * events, leases): their fields are maps and scalars, where strategic merge equals merge patch
 * once the `$patch`-style directives are honoured or dropped.
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return clone(patch);
  if (patch.$patch === "replace") {
    const { $patch: _, ...rest } = patch;
    return clone(rest);
  }
  if (patch.$patch === "delete") return undefined;
  const result: Obj = isObj(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith("$") || key === "__proto__") continue;
    if (key.startsWith("$setElementOrder/") || key.startsWith("$deleteFromPrimitiveList/")) continue;
    if (value === null) delete result[key];
    else {
      const merged = strategicMergePatch(result[key], value);
      if (merged === undefined) delete result[key];
      else result[key] = merged;
    }
  }
  return result;
}

/** RFC 6902 JSON patch, answered as the real server answers a failing patch (422). */
export function jsonPatch(target: Obj, operations: unknown): Obj {
  if (!Array.isArray(operations)) {
    throw badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  }
  try {
    const result = jsonpatch.applyPatch(clone(target), operations as jsonpatch.Operation[], true, true, true);
    const doc = result.newDocument as unknown;
    if (!isObj(doc)) throw new Error("the patched document is not an object");
    return doc;
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    const name = (error as { name?: string }).name ?? "";
    if (
      name === "SEQUENCE_NOT_AN_ARRAY" ||
      name === "OPERATION_NOT_AN_OBJECT" ||
      name === "OPERATION_OP_INVALID"
    ) {
      throw badRequest(message);
    }
    // The real server's generic 422 keeps the patch library's message to itself.
    throw new ApiError(422, "Invalid", "the server rejected our request due to an error in our request", {});
  }
}
