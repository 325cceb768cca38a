/** The query and path parameters of the operations, worded as the real server's. */
export type Param = {
  name: string;
  in: "query" | "path" | "body";
  type?: string;
  required?: boolean;
  description: string;
};

export const QUERY_PARAMS: Record<string, Param> = {
  dryRun: {
    name: "dryRun",
    in: "query",
    type: "string",
    description:
      "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed",
  },
  fieldManager: {
    name: "fieldManager",
    in: "query",
    type: "string",
    description:
      "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.",
  },
  fieldValidation: {
    name: "fieldValidation",
    in: "query",
    type: "string",
    description:
      "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.",
  },
  force: {
    name: "force",
    in: "query",
    type: "boolean",
    description:
      'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  },
  labelSelector: {
    name: "labelSelector",
    in: "query",
    type: "string",
    description: "A selector to restrict the list of returned objects by their labels.",
  },
  fieldSelector: {
    name: "fieldSelector",
    in: "query",
    type: "string",
    description: "A selector to restrict the list of returned objects by their fields.",
  },
  limit: {
    name: "limit",
    in: "query",
    type: "integer",
    description: "limit is a maximum number of responses to return for a list call.",
  },
  continue: {
    name: "continue",
    in: "query",
    type: "string",
    description: "The continue option should be set when retrieving more results from the server.",
  },
  resourceVersion: {
    name: "resourceVersion",
    in: "query",
    type: "string",
    description: "resourceVersion sets a constraint on what resource versions a request may be served from.",
  },
  watch: {
    name: "watch",
    in: "query",
    type: "boolean",
    description:
      "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.",
  },
  allowWatchBookmarks: {
    name: "allowWatchBookmarks",
    in: "query",
    type: "boolean",
    description: 'allowWatchBookmarks requests watch events with type "BOOKMARK".',
  },
  timeoutSeconds: {
    name: "timeoutSeconds",
    in: "query",
    type: "integer",
    description: "Timeout for the list/watch call.",
  },
  resourceVersionMatch: {
    name: "resourceVersionMatch",
    in: "query",
    type: "string",
    description: "resourceVersionMatch determines how resourceVersion is applied to list calls.",
  },
  sendInitialEvents: {
    name: "sendInitialEvents",
    in: "query",
    type: "boolean",
    description: "`sendInitialEvents=true` may be set together with `watch=true`.",
  },
  gracePeriodSeconds: {
    name: "gracePeriodSeconds",
    in: "query",
    type: "integer",
    description: "The duration in seconds before the object should be deleted.",
  },
  ignoreStoreReadErrorWithClusterBreakingPotential: {
    name: "ignoreStoreReadErrorWithClusterBreakingPotential",
    in: "query",
    type: "boolean",
    description:
      "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.",
  },
  orphanDependents: {
    name: "orphanDependents",
    in: "query",
    type: "boolean",
    description: "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.",
  },
  propagationPolicy: {
    name: "propagationPolicy",
    in: "query",
    type: "string",
    description: "Whether and how garbage collection will be performed.",
  },
  pretty: {
    name: "pretty",
    in: "query",
    type: "string",
    description: "If 'true', then the output is pretty printed.",
  },
};
export const NAME_PARAM: Param = {
  name: "name",
  in: "path",
  type: "string",
  required: true,
  description: "name of the resource",
};
export const NAMESPACE_PARAM: Param = {
  name: "namespace",
  in: "path",
  type: "string",
  required: true,
  description: "object name and auth scope, such as for teams and projects",
};
