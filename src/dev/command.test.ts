import { describe, expect, it } from "vitest";
import { parseFlags } from "../lib/cli/index.ts";
import { type DevCommandOptions, dev, kubeApiserverAssets, kubectlHints } from "./command.ts";

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

describe("--region-port follows --simulator-port unless given, as the simulator's follows --port", () => {
  it.each([
    [[], 9293],
    [["--simulator-port", "9300"], 9301],
    [["--simulator-port", "0"], 0],
    [["--simulator-port", "0", "--region-port", "9400"], 9400],
    [["--region-port", "0"], 0],
  ] as const)("%j -> region port %d", (argv, region) => {
    const options = parseFlags(dev, [...argv]) as DevCommandOptions;
    expect(options["region-port"]).toBe(region);
  });
});

describe("--kube-apiserver-assets", () => {
  it("is taken alone, and refused beside --state-dir, whose state a real apiserver's etcd would not keep", () => {
    const options = parseFlags(dev, ["--kube-apiserver-assets", "/envtest"]) as DevCommandOptions;
    expect(options["kube-apiserver-assets"]).toBe("/envtest");
    expect(() => parseFlags(dev, ["--kube-apiserver-assets", "/envtest", "--state-dir", "s"])).toThrow(
      /--state-dir.*a real kube-apiserver's etcd starts empty each time: pass one or the other/,
    );
  });
});

describe("where the real apiserver's binaries come from", () => {
  const parse = (argv: string[]) => parseFlags(dev, argv) as DevCommandOptions;
  it("the flag first, else KUBEBUILDER_ASSETS, else none (the devcluster)", () => {
    const env = { KUBEBUILDER_ASSETS: "/from-env" };
    expect(kubeApiserverAssets(parse(["--kube-apiserver-assets", "/flag"]), env)).toEqual({
      dir: "/flag",
      from: "--kube-apiserver-assets",
    });
    expect(kubeApiserverAssets(parse([]), env)).toEqual({ dir: "/from-env", from: "KUBEBUILDER_ASSETS" });
    expect(kubeApiserverAssets(parse([]), { KUBEBUILDER_ASSETS: "" })).toBeUndefined();
    expect(kubeApiserverAssets(parse([]), {})).toBeUndefined();
  });

  it("KUBEBUILDER_ASSETS beside --state-dir is refused, naming both", () => {
    expect(() => kubeApiserverAssets(parse(["--state-dir", "s"]), { KUBEBUILDER_ASSETS: "/e" })).toThrow(
      /--state-dir .* KUBEBUILDER_ASSETS is set .*: unset KUBEBUILDER_ASSETS or drop --state-dir/,
    );
  });
});
