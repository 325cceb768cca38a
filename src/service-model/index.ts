/**
 * The conventions of the service's API that both its client (the operator's src/api and kinds)
 * and its stand-in (src/simulator) follow, so the two cannot drift apart: the input-value
 * notations of spec 4.13 (parse, format, render, the `inputs` parameter) and the role titles of
 * spec 5.3. Pure values and functions; owns no HTTP, no client and no simulated state.
 */
export * from "./input-notation.ts";
export { ROLE_TITLES, type RoleTitle } from "./roles.ts";
