import { describe, expect, it } from "vitest";
import { selfHref } from "../../src/api/schemas.ts";
import { rejection, startResourceSuite } from "./helpers.ts";

const { h, api } = await startResourceSuite();

describe("alert specs", () => {
  const params = {
    name: "cpu high",
    file: "cpu-0/cpu-idle",
    variable: "value",
    condition: "<" as const,
    threshold: "10",
    duration: 5,
    escalation_name: "critical",
  };

  it("create under a subject, show, index flat and by subject, update, destroy", async () => {
    const href = await api.alertSpecs.create({ ...params }, "/api/servers/1");
    const shown = await api.alertSpecs.show(href);
    expect(shown).toMatchObject({ name: "cpu high", duration: 5, condition: "<", threshold: "10" });
    expect((await api.alertSpecs.index({ subjectHref: "/api/servers/1" })).map(selfHref)).toContain(href);
    expect((await api.alertSpecs.index({ filter: { name: "cpu" } })).map(selfHref)).toContain(href);
    await api.alertSpecs.update(href, { threshold: "5" });
    expect((await api.alertSpecs.show(href)).threshold).toBe("5");
    await api.alertSpecs.destroy(href);
    expect(await rejection(api.alertSpecs.show(href))).toMatchObject({ kind: "notFound" });
  });

  it("neither escalating nor voting is invalid", async () => {
    const { escalation_name: _, ...noEscalation } = params;
    const error = await rejection(api.alertSpecs.create({ ...noEscalation, subject_href: "/api/servers/1" }));
    expect(error).toMatchObject({ kind: "invalid", status: 400 });
  });
});

describe("audit entries", () => {
  it("create, append chunks by offset, detail, update, index by date window", async () => {
    const href = await api.auditEntries.create({ auditee_href: "/api/deployments/1", summary: "deployed" });
    await api.auditEntries.append(href, { detail: "world\n", offset: 6 });
    await api.auditEntries.append(href, { detail: "hello ", offset: 0 });
    expect(await api.auditEntries.detail(href)).toBe("hello world\n");
    await api.auditEntries.update(href, { summary: "deployed v2" });
    const shown = await api.auditEntries.show(href);
    expect(shown).toMatchObject({ summary: "deployed v2", detail_size: 12 });
    const list = await api.auditEntries.index({
      start_date: "2025/12/01 00:00:00 +0000",
      end_date: "2026/02/01 00:00:00 +0000",
      limit: 1000,
      filter: { auditee_href: "/api/deployments/1" },
    });
    expect(list.map(selfHref)).toContain(href);
  });

  it("a date span over 93 days is invalid", async () => {
    const error = await rejection(
      api.auditEntries.index({
        start_date: "2025/01/01 00:00:00 +0000",
        end_date: "2025/12/01 00:00:00 +0000",
        limit: 10,
      }),
    );
    expect(error).toMatchObject({ kind: "invalid", status: 400 });
  });
});

describe("stored script attachments", () => {
  it("uploads multipart, reads it back through the signed URL, updates and destroys", async () => {
    const script = "/api/stored_scripts/1";
    const href = await api.storedScriptAttachments.create(script, {
      filename: "run.sh",
      content: "echo one\n",
    });
    const shown = await api.storedScriptAttachments.show(href);
    expect(shown.filename).toBe("run.sh");
    expect(String(shown.size)).toContain("9");
    const download = await fetch(new URL(shown.download_url!, h.url));
    expect(await download.text()).toBe("echo one\n");
    await api.storedScriptAttachments.update(href, { content: "echo two\n", filename: "run2.sh" });
    const updated = await api.storedScriptAttachments.show(href);
    expect(updated.filename).toBe("run2.sh");
    expect(updated.digest).not.toBe(shown.digest);
    expect(
      (await api.storedScriptAttachments.index(script, { filter: { filename: "run2" } })).map(selfHref),
    ).toEqual([href]);
    await api.storedScriptAttachments.destroy(href);
    expect(await api.storedScriptAttachments.index(script, { filter: { filename: "run2" } })).toEqual([]);
  });
});

describe("monitoring metrics", () => {
  it("lists an instance's metrics and reads their data for a relative window", async () => {
    const metrics = await api.monitoringMetrics.index("/api/clouds/1/instances/1");
    expect(metrics.length).toBeGreaterThan(0);
    const metric = metrics[0]!;
    const again = await api.monitoringMetrics.show(selfHref(metric), {
      graph: { period: "day", size: "small" },
    });
    expect(again.plugin).toBe(metric.plugin);
    const data = await api.monitoringMetrics.data(selfHref(metric), { start: -600, end: 0 });
    expect(data.variables_data.length).toBeGreaterThan(0);
    expect(data.variables_data[0]!.points.length).toBeGreaterThan(0);
  });
});
