/** The port flags of `svc-operator dev`, each on a free port (0) unless `ports` names one. */
export function devPortFlags(
  ports: Partial<Record<"cluster" | "simulator" | "region" | "metrics", string>> = {},
) {
  return (["cluster", "simulator", "region", "metrics"] as const).flatMap((p) => [
    `--${p}-port`,
    ports[p] ?? "0",
  ]);
}
