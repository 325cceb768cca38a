import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseDuration, parseSize } from "./config.ts";

describe("parseDuration", () => {
  it.each([
    ["10m", 600_000],
    ["30s", 30_000],
    ["1.5h", 5_400_000],
    ["250ms", 250],
    ["45", 45_000],
  ])("%s -> %d ms", (text, ms) => expect(parseDuration(text)).toBe(ms));
  it("rejects junk", () => expect(parseDuration("ten minutes")).toBeUndefined());
});

describe("parseSize", () => {
  it.each([
    ["64Mi", 64 * 2 ** 20],
    ["512Ki", 512 * 2 ** 10],
    ["1Gi", 2 ** 30],
    ["100M", 100e6],
    ["2000000", 2_000_000],
  ])("%s -> %d bytes", (text, bytes) => expect(parseSize(text)).toBe(bytes));
  it.each(["64MB", "1.5Mi", "-1Mi", "lots"])("rejects %s", (text) => expect(parseSize(text)).toBeUndefined());
});

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const c = loadConfig({}, {});
    expect(c).toMatchObject({
      inCluster: false,
      namespaces: [],
      concurrency: 8,
      apiConnections: 16,
      apiMaxResponseBytes: 64 * 2 ** 20,
      apiConnectTimeout: 5_000,
      apiFirstByteTimeout: 5_000,
      resync: 600_000,
      apiRate: 20,
      metricsAddress: { host: "127.0.0.1", port: 8080 },
      logLevel: "info",
      leaderElect: false,
      leaseName: "svc-operator-leader",
      leaseDuration: 15_000,
    });
    expect(c.labelSelector).toBeUndefined();
    // Open for development: no allowlist, any endpoint.
    expect(c.allowedEndpoints).toBeUndefined();
  });

  it("takes the service timeouts from the flag or the environment", () => {
    const c = loadConfig(
      { "api-first-byte-timeout": "2s" },
      { SVC_OPERATOR_API_CONNECT_TIMEOUT: "1500ms", SVC_OPERATOR_API_FIRST_BYTE_TIMEOUT: "9s" },
    );
    expect(c).toMatchObject({ apiConnectTimeout: 1_500, apiFirstByteTimeout: 2_000 });
  });

  it("takes the endpoint allowlist from the flag or the environment", () => {
    const fromEnv = loadConfig({}, { SVC_OPERATOR_ALLOWED_ENDPOINTS: "*.example-cloud.com,127.0.0.1:9292" });
    expect(String(fromEnv.allowedEndpoints)).toBe("*.example-cloud.com,127.0.0.1:9292");
    const fromFlag = loadConfig(
      { "allowed-endpoints": "api.example.com" },
      { SVC_OPERATOR_ALLOWED_ENDPOINTS: "*.example-cloud.com" },
    );
    expect(fromFlag.allowedEndpoints?.allows(new URL("https://us-3.example-cloud.com"))).toBe(false);
    expect(fromFlag.allowedEndpoints?.allows(new URL("https://api.example.com"))).toBe(true);
  });

  it("reads the environment and lets flags win", () => {
    const c = loadConfig(
      { concurrency: "4", "leader-elect": true },
      {
        SVC_OPERATOR_CONCURRENCY: "16",
        SVC_OPERATOR_NAMESPACES: "team-a, team-b",
        SVC_OPERATOR_RESYNC: "2m",
        SVC_OPERATOR_LABEL_SELECTOR: "shard=a",
        SVC_OPERATOR_METRICS_ADDRESS: "0.0.0.0:9090",
        KUBECONFIG: "/tmp/kc",
      },
    );
    expect(c.concurrency).toBe(4);
    expect(c.leaderElect).toBe(true);
    expect(c.namespaces).toEqual(["team-a", "team-b"]);
    expect(c.resync).toBe(120_000);
    expect(c.labelSelector).toBe("shard=a");
    expect(c.metricsAddress).toEqual({ host: "0.0.0.0", port: 9090 });
    expect(c.kubeconfig).toBe("/tmp/kc");
  });

  it("takes the response size limit from the flag or the environment", () => {
    expect(loadConfig({}, { SVC_OPERATOR_API_MAX_RESPONSE_BYTES: "128Mi" }).apiMaxResponseBytes).toBe(
      128 * 2 ** 20,
    );
    expect(
      loadConfig({ "api-max-response-bytes": "8Mi" }, { SVC_OPERATOR_API_MAX_RESPONSE_BYTES: "128Mi" })
        .apiMaxResponseBytes,
    ).toBe(8 * 2 ** 20);
  });

  it.each([
    [{ concurrency: "0" }, "--concurrency (SVC_OPERATOR_CONCURRENCY): must be 1 or more"],
    [{ "api-connections": "0" }, "--api-connections (SVC_OPERATOR_API_CONNECTIONS): must be 1 or more"],
    [{ resync: "soon" }, "--resync (SVC_OPERATOR_RESYNC): must be a duration"],
    [
      { "api-max-response-bytes": "64MB" },
      "--api-max-response-bytes (SVC_OPERATOR_API_MAX_RESPONSE_BYTES): must be a size from 1Mi to 256Mi, such as 64Mi or 512Ki (got '64MB')",
    ],
    [
      { "api-max-response-bytes": "512Ki" },
      "--api-max-response-bytes (SVC_OPERATOR_API_MAX_RESPONSE_BYTES): must be a size from 1Mi to 256Mi",
    ],
    [
      { "api-max-response-bytes": "1Gi" },
      "--api-max-response-bytes (SVC_OPERATOR_API_MAX_RESPONSE_BYTES): must be a size from 1Mi to 256Mi",
    ],
    [{ "api-rate": "-1" }, "--api-rate (SVC_OPERATOR_API_RATE): must be more than 0"],
    [
      { "api-connect-timeout": "soon" },
      "--api-connect-timeout (SVC_OPERATOR_API_CONNECT_TIMEOUT): must be a duration",
    ],
    [
      { "api-first-byte-timeout": "10ms" },
      "--api-first-byte-timeout (SVC_OPERATOR_API_FIRST_BYTE_TIMEOUT): must be at least 100 ms",
    ],
    [
      { "api-first-byte-timeout": "2m" },
      "--api-first-byte-timeout (SVC_OPERATOR_API_FIRST_BYTE_TIMEOUT): must be at most 60s",
    ],
    [{ "metrics-address": "8080" }, "--metrics-address (SVC_OPERATOR_METRICS_ADDRESS): must be host:port"],
    [{ "log-level": "loud" }, "--log-level (SVC_OPERATOR_LOG_LEVEL): must be one of"],
    [{ namespaces: "Team_A" }, "--namespaces (SVC_OPERATOR_NAMESPACES): each namespace must be a DNS label"],
    [
      { "allowed-endpoints": "*.com" },
      '--allowed-endpoints (SVC_OPERATOR_ALLOWED_ENDPOINTS): entry 1 "*.com": a wildcard over the public suffix com; must be a comma-separated list of hosts',
    ],
    [
      { "allowed-endpoints": "https://us-3.example-cloud.com" },
      '--allowed-endpoints (SVC_OPERATOR_ALLOWED_ENDPOINTS): entry 1 "https://us-3.example-cloud.com": not a host',
    ],
    [
      { "label-selector": "a b c" },
      "--label-selector (SVC_OPERATOR_LABEL_SELECTOR): must be a Kubernetes label selector",
    ],
  ])("names the flag and the rule: %j", (flags, message) => {
    expect(() => loadConfig(flags, {})).toThrow(ConfigError);
    expect(() => loadConfig(flags, {})).toThrow(message);
  });

  it("names the environment variable when the bad value came from it", () => {
    expect(() => loadConfig({}, { SVC_OPERATOR_LEADER_ELECT: "maybe" })).toThrow("SVC_OPERATOR_LEADER_ELECT");
  });

  it("accepts selector forms the apiserver accepts", () => {
    for (const s of ["shard=a", "shard!=b,tier in (web, api)", "!legacy", "app"]) {
      expect(loadConfig({ "label-selector": s }, {}).labelSelector).toBe(s);
    }
  });
});
