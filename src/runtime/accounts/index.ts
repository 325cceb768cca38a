/**
 * Accounts: one verified service client per Account, its credentials check (ahead of the
 * first reconcile, holding no slot), the words for a failing one, and clients retired when the
 * credentials change. Not here: the service client itself (api/).
 */

export * from "./accounts.ts";
