import { describe, expect, it } from "vitest";
import { linkHref, selfHref } from "../../src/api/schemas.ts";
import { rejection, startResourceSuite, testApi } from "./helpers.ts";

const { h, api } = await startResourceSuite();

const CLOUD = "/api/clouds/1";

describe("volumes and recurring volume attachments", () => {
  it("volume create/show/index/update/destroy; attachments under all three prefixes", async () => {
    const volume = await api.volumes.create(CLOUD, {
      name: "client-vol",
      size: 100,
      datacenter_href: "/api/clouds/1/datacenters/1",
      volume_type_href: "/api/clouds/1/volume_types/1",
      deployment_href: "/api/deployments/1",
    });
    expect(await api.volumes.show(volume)).toMatchObject({ name: "client-vol", size: 100 });
    expect((await api.volumes.index(CLOUD, { filter: { name: "client-vol" } })).map(selfHref)).toEqual([
      volume,
    ]);
    await api.volumes.update(volume, { name: "client-vol-2" });
    expect((await api.volumes.show(volume, { view: "extended" })).name).toBe("client-vol-2");

    const viaCloud = await api.recurringVolumeAttachments.create(CLOUD, {
      device: "/dev/xvdb",
      runnable_href: "/api/servers/1",
      storage_href: volume,
    });
    const viaVolume = await api.recurringVolumeAttachments.create(volume, {
      device: "/dev/xvdc",
      runnable_href: "/api/servers/2",
      storage_href: volume,
    });
    const viaSnapshot = await api.recurringVolumeAttachments.create("/api/clouds/1/volume_snapshots/1", {
      device: "/dev/xvde",
      runnable_href: "/api/servers/1",
      storage_href: "/api/clouds/1/volume_snapshots/1",
    });
    expect((await api.recurringVolumeAttachments.show(viaCloud)).device).toBe("/dev/xvdb");
    const ofVolume = await api.recurringVolumeAttachments.index(CLOUD, { filter: { storage_href: volume } });
    expect(ofVolume.map(selfHref).sort()).toEqual([viaCloud, viaVolume].sort());
    expect(await rejection(api.volumes.destroy(volume))).toMatchObject({ kind: "conflict", status: 422 });

    await api.recurringVolumeAttachments.destroy(viaCloud);
    await api.recurringVolumeAttachments.destroy(viaVolume);
    await api.recurringVolumeAttachments.destroy(viaSnapshot);
    await api.volumes.destroy(volume);
    expect(await rejection(api.volumes.show(volume))).toMatchObject({ kind: "notFound" });
  });

  it("a bad device is invalid, naming the parameter", async () => {
    const error = await rejection(
      api.recurringVolumeAttachments.create(CLOUD, {
        device: "/dev/sda",
        runnable_href: "/api/servers/1",
        storage_href: "/api/clouds/1/volume_snapshots/1",
      }),
    );
    expect(error).toMatchObject({ kind: "invalid", status: 400 });
    expect(error.message).toContain("device");
  });
});

describe("IP addresses and bindings", () => {
  it("address create/update/destroy; one-time and recurring bindings under both prefixes", async () => {
    const address = await api.ipAddresses.create(CLOUD, {
      name: "web-ip",
      deployment_href: "/api/deployments/1",
    });
    expect((await api.ipAddresses.show(address)).name).toBe("web-ip");
    await api.ipAddresses.update(address, { name: "web-ip-2" });
    expect((await api.ipAddresses.index(CLOUD, { filter: { name: "web-ip-2" } })).map(selfHref)).toEqual([
      address,
    ]);

    const current = await api.ipAddressBindings.create(CLOUD, {
      instance_href: "/api/clouds/1/instances/1",
      public_ip_address_href: address,
    });
    const next = await api.ipAddressBindings.create(address, {
      instance_href: "/api/clouds/1/instances/3",
      public_ip_address_href: address,
    });
    expect((await api.ipAddressBindings.show(current)).recurring).toBe(false);
    expect((await api.ipAddressBindings.show(next)).recurring).toBe(true);
    const bound = await api.ipAddressBindings.index(address);
    expect(bound.map(selfHref).sort()).toEqual([current, next].sort());
    expect(linkHref(bound[0]!, "ip_address")).toBe(address);

    await api.ipAddressBindings.destroy(current);
    await api.ipAddressBindings.destroy(next);
    await api.ipAddresses.destroy(address);
    expect(await rejection(api.ipAddresses.show(address))).toMatchObject({ kind: "notFound" });
  });
});

describe("an IP address binding created without Location", () => {
  it("is found among its address's bindings by its instance and ports, not mistaken for another", async () => {
    const address = await api.ipAddresses.create(CLOUD, { name: "forwarded" });
    const instance = "/api/clouds/1/instances/1";
    const http = await api.ipAddressBindings.create(CLOUD, {
      instance_href: instance,
      public_ip_address_href: address,
      public_port: "80",
      protocol: "TCP",
    });
    const noLocation = testApi(h, {
      editResponseHeaders: (status, headers) => {
        if (status === 201) delete headers.location;
      },
    });
    const https = await noLocation.api.ipAddressBindings.create(CLOUD, {
      instance_href: instance,
      public_ip_address_href: address,
      public_port: "443",
      private_port: "8443",
      protocol: "TCP",
    });
    expect(https).not.toBe(http);
    expect(await api.ipAddressBindings.show(https)).toMatchObject({ public_port: 443, private_port: 8443 });
    await noLocation.close();
    for (const b of [http, https]) await api.ipAddressBindings.destroy(b);
    await api.ipAddresses.destroy(address);
  });
});

describe("resource groups", () => {
  it("create/show/index/update/destroy", async () => {
    const group = await api.resourceGroups.create({ cloud_href: CLOUD, name: "rg-web", description: "web" });
    expect((await api.resourceGroups.show(group)).name).toBe("rg-web");
    expect((await api.resourceGroups.index({ filter: { name: "rg-w" } })).map(selfHref)).toEqual([group]);
    await api.resourceGroups.update(group, { description: "" });
    expect((await api.resourceGroups.show(group)).description).toBe("");
    await api.resourceGroups.destroy(group);
    expect(await rejection(api.resourceGroups.show(group))).toMatchObject({ kind: "notFound" });
  });
});
