import type { HrefGroup } from "../simulator/seeded-hrefs.ts";
import { DEMO_NAMESPACE } from "./names.ts";

/** Most objects one line of the seeded block names; a state with more says how many it leaves out. */
const LISTED = 4;

/** The lines that bring namespace demo back after `kubectl delete namespace demo`. */
export function restoreHint(demoFile: string, samplesDir: string | undefined): string[] {
  const samples = samplesDir ? ` -f ${samplesDir}` : "";
  return [
    `After kubectl delete namespace ${DEMO_NAMESPACE}, this brings it back (its Secret, its Account${samplesDir ? " and the samples" : ""}):`,
    `  kubectl apply -n ${DEMO_NAMESPACE} -f ${demoFile}${samples}`,
  ];
}

/**
 * The hrefs of what the simulator holds that a manifest names and no custom resource makes
 * (clouds, datacenters, servers, volume types, users): one line each, names beside them.
 */
export function seededLines(groups: HrefGroup[]): string[] {
  const width = Math.max(...groups.map((g) => g.title.length));
  return [
    "In the simulator, for your own manifests (docs/dev.md#what-the-simulator-holds):",
    ...groups.map((g) => {
      const shown = g.entries.slice(0, LISTED).map((e) => (e.label ? `${e.href} (${e.label})` : e.href));
      const more = g.entries.length - shown.length;
      const list = shown.length === 0 ? "none" : shown.join(", ");
      return `  ${g.title.padEnd(width)}  ${list}${more > 0 ? `, and ${more} more` : ""}`;
    }),
  ];
}
