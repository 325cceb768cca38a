/**
 * The roles of spec 5.3 that `permission[role_title]` takes. One list for the whole product:
 * the simulator enforces it and the Permission kind validates against it.
 */
export const ROLE_TITLES = [
  "admin",
  "actor",
  "observer",
  "aws_architect",
  "publisher",
  "designer",
  "signup_wiz",
  "enterprise_manager",
  "server_login",
  "library",
  "security_manager",
  "instance",
  "server_superuser",
  "infrastructure",
  "ss_end_user",
  "ss_designer",
  "ss_observer",
] as const;

export type RoleTitle = (typeof ROLE_TITLES)[number];
