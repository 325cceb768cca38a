import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { delimiter, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { crdSources, managedKinds } from "../../src/kinds/index.ts";
import { loadConfig } from "../../src/runtime/config/index.ts";
import { GROUP } from "../../src/runtime/sdk/index.ts";
import { OperatorMetrics, operatorRegistry } from "../../src/runtime/telemetry/index.ts";
import { familyOf, groupingLabels, metricRefs } from "./promql.ts";
import { kustomizationFile, type Manifest, parseYamlFile, podContainers, render } from "./render.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const NS = "svc-operator-system";

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const manifests = render(join(ROOT, "deploy"));
const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const one = (kind: string): Manifest & Record<string, never> => {
  const found = byKind(kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as never;
};
/** The plurals of every kind the operator serves (Account + the managed kinds of src/kinds/index.ts). */
const plurals = ["accounts", ...managedKinds.map((k) => k.plural)].sort();

describe("deploy/ files", () => {
  it.each(yamlFiles(join(ROOT, "deploy")).map((f) => relative(ROOT, f)))("%s parses", (file) => {
    const docs = parseYamlFile(join(ROOT, file));
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(typeof doc, file).toBe("object");
  });

  it("every crds/*.yaml is a resource of the crds kustomization, and the base renders every CRD", () => {
    const listed = (parseYamlFile(kustomizationFile(join(ROOT, "crds"))!)[0] as { resources: string[] })
      .resources;
    const files = readdirSync(join(ROOT, "crds")).filter((f) => f.endsWith(".yaml"));
    expect([...listed].sort()).toEqual(files.sort());
    const rendered = byKind("CustomResourceDefinition")
      .map((m) => m.metadata.name)
      .sort();
    expect(rendered).toEqual(
      crdSources()
        .map((s) => `${s.plural}.${GROUP}`)
        .sort(),
    );
  });

  it("namespaced objects live in svc-operator-system, which enforces Pod Security restricted", () => {
    const ns = one("Namespace");
    expect(ns.metadata.name).toBe(NS);
    expect(ns.metadata.labels?.["pod-security.kubernetes.io/enforce"]).toBe("restricted");
    const cluster = new Set(["Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition"]);
    for (const m of manifests.filter((x) => !cluster.has(x.kind)))
      expect(m.metadata.namespace, `${m.kind}/${m.metadata.name}`).toBe(NS);
  });
});

describe("RBAC: least privilege", () => {
  interface Rule {
    apiGroups: string[];
    resources: string[];
    verbs: string[];
    resourceNames?: string[];
  }
  const named = (kind: string, name: string) => {
    const found = manifests.filter((m) => m.kind === kind && m.metadata.name === name);
    expect(found, `${kind} ${name}`).toHaveLength(1);
    return found[0] as unknown as Manifest & { rules: Rule[] };
  };
  const clusterRole = named("ClusterRole", "svc-operator");
  const role = one("Role") as unknown as { metadata: { namespace: string }; rules: Rule[] };
  const verbsOn = (rules: Rule[], group: string, resource: string) =>
    rules
      .filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource))
      .flatMap((r) => r.verbs)
      .sort();

  it("no wildcards anywhere", () => {
    const all = manifests.filter((m) => m.kind === "ClusterRole" || m.kind === "Role") as unknown as {
      rules: Rule[];
    }[];
    for (const rule of all.flatMap((r) => r.rules)) {
      for (const field of [rule.apiGroups, rule.resources, rule.verbs, rule.resourceNames ?? []])
        expect(field).not.toContain("*");
    }
  });

  it("covers every registered kind, its status and finalizers, with exactly the verbs the runtime uses", () => {
    const custom = clusterRole.rules.filter((r) => r.apiGroups.includes(GROUP));
    const resources = custom.flatMap((r) => r.resources).sort();
    expect(resources).toEqual(plurals.flatMap((p) => [p, `${p}/finalizers`, `${p}/status`]).sort());
    for (const p of plurals) {
      // informers list+watch; finalizer/annotation writes are merge patches (src/runtime/cache/kube-api.ts)
      expect(verbsOn(custom, GROUP, p), p).toEqual(["list", "patch", "watch"]);
      expect(verbsOn(custom, GROUP, `${p}/status`), p).toEqual(["patch"]);
      expect(verbsOn(custom, GROUP, `${p}/finalizers`), p).toEqual(["update"]);
    }
  });

  it("Secrets: get only (read by name, never listed or watched); ConfigMaps: get, and list + watch for their changes; Events: create and patch; nothing else", () => {
    const core = clusterRole.rules.filter((r) => r.apiGroups.includes(""));
    expect(verbsOn(core, "", "secrets")).toEqual(["get"]);
    expect(verbsOn(core, "", "configmaps")).toEqual(["get", "list", "watch"]);
    expect(verbsOn(core, "", "events")).toEqual(["create", "patch"]);
    expect(core.flatMap((r) => r.resources).sort()).toEqual(["configmaps", "events", "secrets"]);
    const groups = new Set(clusterRole.rules.flatMap((r) => r.apiGroups));
    expect([...groups].sort()).toEqual(["", GROUP]);
  });

  it("the Lease: a Role in the operator's namespace, get/update limited to the lease name", () => {
    expect(role.metadata.namespace).toBe(NS);
    expect(
      role.rules.every(
        (r) => r.apiGroups.join() === "coordination.k8s.io" && r.resources.join() === "leases",
      ),
    ).toBe(true);
    expect(verbsOn(role.rules, "coordination.k8s.io", "leases")).toEqual(["create", "get", "update"]);
    const named = role.rules.filter((r) => r.resourceNames);
    expect(named.flatMap((r) => r.resourceNames ?? [])).toEqual([loadConfig({}, {}).leaseName]);
    expect(named.flatMap((r) => r.verbs).sort()).toEqual(["get", "update"]);
  });

  it("user roles: view reads every kind, edit writes them; aggregated into the built-in roles", () => {
    const view = named("ClusterRole", "svc-operator-view");
    const edit = named("ClusterRole", "svc-operator-edit");
    for (const [role, verbs, aggregates] of [
      [view, ["get", "list", "watch"], ["view", "edit", "admin"]],
      [edit, ["create", "delete", "deletecollection", "patch", "update"], ["edit", "admin"]],
    ] as const) {
      expect(role.rules.flatMap((r) => r.apiGroups)).toEqual([GROUP]);
      expect(role.rules.flatMap((r) => r.resources).sort()).toEqual(plurals);
      expect(role.rules.flatMap((r) => r.verbs).sort()).toEqual([...verbs]);
      const labels = Object.keys(role.metadata.labels ?? {}).filter((l) => l.includes("aggregate-to-"));
      expect(labels.map((l) => l.split("aggregate-to-")[1]).sort()).toEqual([...aggregates].sort());
    }
    // Only the operator's own role is bound to anything.
    const bound = manifests
      .filter((m) => m.kind === "ClusterRoleBinding")
      .map((b) => (b as unknown as { roleRef: { name: string } }).roleRef.name);
    expect(bound).toEqual(["svc-operator"]);
  });

  it("bindings give the roles to the operator's ServiceAccount", () => {
    const sa = one("ServiceAccount");
    for (const kind of ["ClusterRoleBinding", "RoleBinding"]) {
      const b = one(kind) as unknown as {
        subjects: { kind: string; name: string; namespace: string }[];
        roleRef: { kind: string; name: string };
      };
      expect(b.subjects).toEqual([{ kind: "ServiceAccount", name: sa.metadata.name, namespace: NS }]);
      const target = kind === "RoleBinding" ? one("Role") : clusterRole;
      expect(b.roleRef.name).toBe(target.metadata.name);
    }
  });
});

describe("the operator Deployment", () => {
  // biome-ignore lint/suspicious/noExplicitAny: a parsed manifest
  const deployment = one("Deployment") as any;
  const pod = deployment.spec.template.spec;
  const [container] = podContainers(deployment) as never as [
    // biome-ignore lint/suspicious/noExplicitAny: a parsed manifest
    Record<string, any>,
  ];
  const args: string[] = container.args;
  const flags = Object.fromEntries(
    args.map((a) => {
      const [name, value] = a.replace(/^--/, "").split("=");
      return [name!, value ?? true];
    }),
  );
  const env = Object.fromEntries(
    (container.env as { name: string; value?: string }[]).map((e) => [e.name, e.value ?? "from-field"]),
  );
  const config = loadConfig(flags, env);

  it("2 replicas with leader election, in-cluster config, flags the run command accepts", () => {
    expect(deployment.spec.replicas).toBe(2);
    expect(config.leaderElect).toBe(true);
    expect(config.inCluster).toBe(true);
    expect(pod.serviceAccountName).toBe(one("ServiceAccount").metadata.name);
    // The Lease namespace comes from the pod's own namespace (the Role is there).
    const leaseNs = container.env.find((e: { name: string }) => e.name === "SVC_OPERATOR_LEASE_NAMESPACE");
    expect(leaseNs.valueFrom.fieldRef.fieldPath).toBe("metadata.namespace");
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.shutdownTimeout);
  });

  it("restricts where credentials go: an --allowed-endpoints placeholder that docs/install.md says to replace", () => {
    const placeholder = args.find((a) => a.startsWith("--allowed-endpoints="));
    expect(config.allowedEndpoints, "--allowed-endpoints in the Deployment's args").toBeDefined();
    const install = readFileSync(join(ROOT, "docs", "install.md"), "utf8");
    expect(install).toContain("## Allowed endpoints");
    expect(install).toContain(`value: ${placeholder}`);
    // The patch it shows finds the argument by its index.
    expect(install).toContain(`path: /spec/template/spec/containers/0/args/${args.indexOf(placeholder!)}`);
  });

  it("a pinned image", () => {
    expect(container.image).toMatch(/^[^:]+:[0-9][\w.-]*$/);
  });

  it("liveness and readiness probes on the metrics port, which listens on all interfaces", () => {
    const port = container.ports.find((p: { name: string }) => p.name === "metrics");
    expect(port.containerPort).toBe(config.metricsAddress.port);
    expect(config.metricsAddress.host).toBe("0.0.0.0");
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "metrics" });
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "metrics" });
  });

  it("requests and limits", () => {
    for (const section of ["requests", "limits"]) {
      expect(container.resources[section].cpu, section).toBeTruthy();
      expect(container.resources[section].memory, section).toBeTruthy();
    }
  });

  it("restricted security context: non-root, read-only root, no capabilities, RuntimeDefault seccomp", () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(pod.securityContext.seccompProfile).toEqual({ type: "RuntimeDefault" });
    const sc = container.securityContext;
    expect(sc.runAsNonRoot).toBe(true);
    expect(sc.readOnlyRootFilesystem).toBe(true);
    expect(sc.allowPrivilegeEscalation).toBe(false);
    expect(sc.privileged).toBe(false);
    expect(sc.capabilities).toEqual({ drop: ["ALL"] });
    expect(sc.seccompProfile).toEqual({ type: "RuntimeDefault" });
    expect(pod.hostNetwork ?? false).toBe(false);
  });

  it("a PodDisruptionBudget and a metrics Service select its pods", () => {
    const labels = deployment.spec.template.metadata.labels;
    const matches = (selector: Record<string, string>) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v);
    // biome-ignore lint/suspicious/noExplicitAny: parsed manifests
    const pdb = one("PodDisruptionBudget") as any;
    expect(matches(pdb.spec.selector.matchLabels)).toBe(true);
    expect(pdb.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    // biome-ignore lint/suspicious/noExplicitAny: parsed manifests
    const service = one("Service") as any;
    expect(matches(service.spec.selector)).toBe(true);
    expect(service.spec.ports).toContainEqual(
      expect.objectContaining({ name: "metrics", targetPort: "metrics" }),
    );
    // biome-ignore lint/suspicious/noExplicitAny: parsed manifests
    const monitor = one("ServiceMonitor") as any;
    for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels))
      expect(service.metadata.labels[k], k).toBe(v);
    expect(monitor.spec.endpoints[0]).toMatchObject({ port: "metrics", path: "/metrics" });
  });

  it("a NetworkPolicy admits only the metrics port, only from namespaces labelled for scraping", () => {
    const labels = deployment.spec.template.metadata.labels;
    // biome-ignore lint/suspicious/noExplicitAny: a parsed manifest
    const policy = one("NetworkPolicy") as any;
    for (const [k, v] of Object.entries(policy.spec.podSelector.matchLabels)) expect(labels[k], k).toBe(v);
    expect(policy.spec.policyTypes).toEqual(["Ingress"]);
    expect(policy.spec.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { "cloud.svc.io/scrape-metrics": "true" } } }],
        ports: [{ port: "metrics", protocol: "TCP" }],
      },
    ]);
    const container = podContainers(deployment)[0]!;
    expect(container.ports).toContainEqual(expect.objectContaining({ name: "metrics", containerPort: 8080 }));
  });
});

describe("PrometheusRule", () => {
  // biome-ignore lint/suspicious/noExplicitAny: a parsed manifest
  const rules = (one("PrometheusRule") as any).spec.groups.flatMap((g: { rules: unknown[] }) => g.rules) as {
    alert: string;
    expr: string;
    for: string;
    labels: { severity: string };
    annotations: { summary: string };
  }[];
  const exported = new Map<string, string[]>();
  const registry = operatorRegistry({});
  const metrics = new OperatorMetrics(registry);
  for (const metric of [...Object.values(metrics), ...registry.getMetricsAsArray()]) {
    const m = metric as { name?: string; labelNames?: string[] };
    if (typeof m?.name === "string") exported.set(m.name, m.labelNames ?? []);
  }
  // kube-state-metrics (kube-prometheus-stack) gives the container's limits.
  exported.set("kube_pod_container_resource_limits", ["namespace", "pod", "container", "resource"]);
  // The labels Prometheus adds to every series it scrapes through the ServiceMonitor.
  const targetLabels = ["job", "namespace", "pod", "container", "service", "instance", "endpoint"];
  const families = new Set(exported.keys());

  it("the six alerts", () => {
    expect(rules.map((r) => r.alert).sort()).toEqual([
      "SvcOperatorApiThrottled",
      "SvcOperatorMemoryNearLimit",
      "SvcOperatorNoLeader",
      "SvcOperatorReconcileErrors",
      "SvcOperatorResourceNotReady",
      "SvcOperatorResourceStalled",
    ]);
    const notReady = rules.find((r) => r.alert === "SvcOperatorResourceNotReady")!;
    expect(notReady.for).toBe("15m");
    expect(notReady.expr).toContain('condition="Ready"');
    expect(rules.find((r) => r.alert === "SvcOperatorResourceStalled")!.expr).toContain(
      'condition="Stalled"',
    );
    expect(rules.find((r) => r.alert === "SvcOperatorApiThrottled")!.expr).toContain('status="429"');
    for (const r of rules) {
      expect(r.labels.severity, r.alert).toMatch(/^(warning|critical)$/);
      expect(r.annotations.summary, r.alert).toBeTruthy();
    }
  });

  it("memory near the limit: the operator's resident memory over its container's memory limit", () => {
    const { expr } = rules.find((r) => r.alert === "SvcOperatorMemoryNearLimit")!;
    // biome-ignore lint/suspicious/noExplicitAny: parsed manifests
    const deployment = one("Deployment") as any;
    const container = podContainers(deployment)[0] as unknown as {
      name: string;
      resources: { limits: { memory: string } };
    };
    expect(container.resources.limits.memory).toBeTruthy();
    expect(expr).toContain(`container="${container.name}"`);
    expect(expr).toContain('resource="memory"');
    expect(expr).toContain("process_resident_memory_bytes");
    // The job Prometheus gives the operator's series: the metrics Service's name.
    expect(expr).toContain(`job="${one("Service").metadata.name}"`);
  });

  it("use only metrics and labels the runtime exports (or Prometheus adds at scrape)", () => {
    expect(exported.size).toBeGreaterThan(5);
    for (const r of rules) {
      const used = metricRefs(r.expr);
      expect(used.length, r.alert).toBeGreaterThan(0);
      for (const { name, labels } of used) {
        const family = familyOf(name, families);
        expect(family, `${r.alert}: ${name}`).toBeDefined();
        const known = [...exported.get(family!)!, ...targetLabels, "le"];
        for (const label of labels)
          expect(known, `${r.alert}: ${name} has no label ${label}`).toContain(label);
      }
      for (const l of groupingLabels(r.expr)) {
        const known = used.some((u) => exported.get(familyOf(u.name, families)!)?.includes(l));
        expect(known || targetLabels.includes(l), `${r.alert}: by ${l}`).toBe(true);
      }
    }
  });
});

describe("the renderer", () => {
  it("refuses files outside a kustomization's root, as kustomize does", () => {
    expect(() => render(join(import.meta.dirname, "fixtures", "escape"))).toThrow(/outside/);
  });
  it("reads every file it is given (sanity: the base is not empty)", () => {
    expect(readFileSync(join(ROOT, "deploy", "kustomization.yaml"), "utf8")).toContain("resources");
    expect(manifests.length).toBeGreaterThan(10);
  });
});

const kubectl = (process.env.PATH ?? "")
  .split(delimiter)
  .map((d) => join(d, "kubectl"))
  .find((p) => existsSync(p));

describe.skipIf(!kubectl)("the real kustomize (kubectl kustomize)", () => {
  const id = (m: Manifest) => `${m.kind}/${m.metadata.namespace ?? ""}/${m.metadata.name}`;
  const byId = (list: Manifest[]) => Object.fromEntries(list.map((m) => [id(m), m]));

  it.each(["deploy", "deploy/operator", "deploy/monitoring", "deploy/argocd", "deploy/overlays/example"])(
    "builds %s to exactly what the test renderer sees",
    (dir) => {
      const out = execFileSync(kubectl!, ["kustomize", join(ROOT, dir)], { encoding: "utf8" });
      const real = parseAllDocuments(out).map((d) => d.toJS() as Manifest);
      expect(byId(real)).toEqual(byId(render(join(ROOT, dir))));
    },
  );
});
