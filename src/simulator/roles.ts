import { ROLE_TITLES } from "../service-model/index.ts";
import { permissionDenied } from "./errors.ts";
import type { Store } from "./store.ts";

export { ROLE_TITLES };

/** Account settings some operations need (spec 5.3 "extra setting"). */
export const SETTINGS = ["premium_deployments", "monitoring_api"] as const;

export interface UserRecord {
  id: string;
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  company: string;
  /** The OAuth refresh token enabled by this user, if any (acts with this user's roles). */
  refresh_token: string | null;
  /** Settings in force for this user's calls (the seed gives user 1 both). */
  settings: string[];
  // Shown in the user's representation; optional so tests may insert bare users.
  login_name?: string | null;
  phone?: string;
  timezone_name?: string;
  principal_uid?: string | null;
  created_at?: number;
  updated_at?: number;
}

export interface PermissionRecord {
  /** `<user_id>-<role_title>`, the tail of the permission href. */
  id: string;
  user_id: string;
  role_title: string;
  created_at: number | null;
}

/**
 * What an operation needs: any one of `roles` (the spec's `a||b`) and every one of `settings`.
 * `public` routes need no login at all (session, oauth2, signed downloads).
 */
export type Access = "public" | { roles: readonly string[]; settings?: readonly string[] };

export const access = {
  public: "public" as Access,
  anyOf: (...roles: string[]): Access => ({ roles }),
  withSettings: (roles: string[], settings: string[]): Access => ({ roles, settings }),
};

export function hasRole(store: Store, userId: string, role: string): boolean {
  return store.collection<PermissionRecord>("permissions").get(`${userId}-${role}`) !== undefined;
}

/** Throws 403 `PermissionDenied: ...` naming the missing role(s) or setting. */
export function checkAccess(store: Store, userId: string, needed: Access): void {
  if (needed === "public") return;
  if (needed.roles.length > 0 && !needed.roles.some((role) => hasRole(store, userId, role))) {
    const names = needed.roles.join(" or ");
    throw permissionDenied(`this operation requires the ${names} role (user ${userId} has none of them)`);
  }
  if (needed.settings && needed.settings.length > 0) {
    const user = store.collection<UserRecord>("users").get(userId);
    for (const setting of needed.settings) {
      if (!user?.settings.includes(setting)) {
        throw permissionDenied(`this operation requires the ${setting} setting to be enabled`);
      }
    }
  }
}
