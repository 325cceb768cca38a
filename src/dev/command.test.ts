import { describe, expect, it } from "vitest";
import { kubectlHints } from "./command.ts";

describe("the kubectl lines svc-operator dev prints", () => {
  it("describe a sample that was applied", () => {
    const lines = kubectlHints("/abs/kubeconfig", "/abs/deploy/samples");
    expect(lines).toContain("  export KUBECONFIG=/abs/kubeconfig");
    expect(lines).toContain("  kubectl describe networks.cloud.svc.io main -n demo");
    expect(lines).toContain("  kubectl apply -n demo -f /abs/deploy/samples");
  });

  it("with --no-samples describe the Account, which exists, and suggest no apply", () => {
    const lines = kubectlHints("/abs/kubeconfig", undefined).join("\n");
    expect(lines).toContain("kubectl describe accounts.cloud.svc.io default -n demo");
    expect(lines).not.toContain("networks.cloud.svc.io");
    expect(lines).not.toContain("kubectl apply");
  });
});
