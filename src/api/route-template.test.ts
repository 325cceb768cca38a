import { describe, expect, it } from "vitest";
import { routeTemplate } from "./route-template.ts";

describe("routeTemplate", () => {
  it.each([
    ["/api/deployments", "/api/deployments"],
    ["/api/deployments/12", "/api/deployments/:id"],
    ["/api/deployments/12/lock", "/api/deployments/:id/lock"],
    ["/api/deployments/12/inputs/multi_update", "/api/deployments/:id/inputs/multi_update"],
    ["/api/clouds/1/volumes/ABC;xyz", "/api/clouds/:id/volumes/:id"],
    ["/api/clouds/1/volumes/7.json?view=extended", "/api/clouds/:id/volumes/:id"],
    ["/api/permissions/2-observer", "/api/permissions/:id"],
    ["/api/oauth2/", "/api/oauth2/"],
    [
      "/api/clouds/1/instances/2/monitoring_metrics/cpu:load/data",
      "/api/clouds/:id/instances/:id/monitoring_metrics/:id/data",
    ],
  ])("%s -> %s", (href, template) => {
    expect(routeTemplate(href)).toBe(template);
  });
});
