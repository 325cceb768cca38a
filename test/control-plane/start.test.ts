import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { missingBinaries, startControlPlane } from "../../src/control-plane/index.ts";
import { controlPlane } from "../support/control-plane.testing.ts";

const plane = controlPlane();

describe("the control plane of KUBEBUILDER_ASSETS", () => {
  it("says which binary a folder lacks", async () => {
    const empty = await mkdtemp(join(tmpdir(), "no-assets-"));
    try {
      expect(missingBinaries(empty)).toBe(`${empty} holds no kube-apiserver or etcd`);
      await expect(startControlPlane(empty)).rejects.toThrow(
        `cannot start a control plane: ${empty} holds no`,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it.runIf(plane !== null)(
    "is a real kube-apiserver with RBAC on, the admin's kubeconfig works with kubectl",
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "control-plane-kubectl-"));
      try {
        const kubeconfig = join(dir, "kubeconfig");
        await writeFile(kubeconfig, plane!.kubeconfig, { mode: 0o600 });
        const kubectl = (...args: string[]) =>
          spawnSync("kubectl", ["--kubeconfig", kubeconfig, ...args], { encoding: "utf8", timeout: 30_000 });
        const version = kubectl("version", "-o", "json");
        expect(version.status, version.stderr).toBe(0);
        expect(JSON.parse(version.stdout).serverVersion.gitVersion).toMatch(/^v1\.32\./);
        // RBAC: an identity with no binding is refused; the admin (system:masters) is not.
        const anonymous = kubectl("auth", "can-i", "list", "secrets", "--as", "nobody");
        expect(anonymous.stdout.trim()).toBe("no");
        expect(kubectl("auth", "can-i", "list", "secrets").stdout.trim()).toBe("yes");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
