/**
 * Ids in a refusal message (`subnets 1, 2, 3`): a network with thousands of subnets must not
 * produce a megabyte of error text, so the list stops after LISTED_IDS and says how many more.
 */
export const LISTED_IDS = 10;

export function listIds(objects: ReadonlyArray<{ id: string }>): string {
  const shown = objects.slice(0, LISTED_IDS).map((o) => o.id);
  const more = objects.length - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
}
