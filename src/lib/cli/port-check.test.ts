import { type AddressInfo, createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { UsageError } from "./command.ts";
import { checkPorts } from "./port-check.ts";

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A port of 127.0.0.1 a listener holds until the test ends. */
async function taken(): Promise<number> {
  const server = createServer();
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A port that was free a moment ago. */
async function free(): Promise<number> {
  const port = await taken();
  await new Promise((resolve) => open.pop()!.close(resolve));
  return port;
}

const flag = (name: string, port: number, host = "127.0.0.1") => ({ flag: `--${name} ${port}`, host, port });

describe("checkPorts: every port a command listens on, before it starts", () => {
  it("names every taken port in one error, each with its flag and what to do", async () => {
    const [a, b, c] = [await taken(), await free(), await taken()];
    const error = await checkPorts(
      [flag("cluster-port", a), flag("simulator-port", b), flag("metrics-port", c)],
      "--host 127.0.0.1",
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.message).toBe(
      [
        "2 of the ports cannot be used:",
        `  --cluster-port ${a}: address 127.0.0.1:${a} is in use (EADDRINUSE); pick another port or 0 for a free one`,
        `  --metrics-port ${c}: address 127.0.0.1:${c} is in use (EADDRINUSE); pick another port or 0 for a free one`,
      ].join("\n"),
    );
  });

  it("one taken port: the message a failed bind gives", async () => {
    const a = await taken();
    expect((await checkPorts([flag("port", a), flag("region-port", 0)], "--host 127.0.0.1"))?.message).toBe(
      `--port ${a}: address 127.0.0.1:${a} is in use (EADDRINUSE); pick another port or 0 for a free one`,
    );
  });

  it("two flags giving the same port are named together", async () => {
    const a = await free();
    expect(
      (await checkPorts([flag("cluster-port", a), flag("metrics-port", a)], "--host 127.0.0.1"))?.message,
    ).toBe(
      `--cluster-port ${a}, --metrics-port ${a}: the same port for 2 servers; give each its own, or 0 for a free one`,
    );
  });

  it("free ports and 0 (any free port) pass, and are left free", async () => {
    const a = await free();
    expect(await checkPorts([flag("port", a), flag("region-port", 0)], "--host 127.0.0.1")).toBeUndefined();
    const again = createServer();
    open.push(again);
    await new Promise<void>((resolve, reject) => {
      again.once("error", reject);
      again.listen(a, "127.0.0.1", resolve);
    });
  });

  it("an address this machine lacks is named once, by the host flag", async () => {
    const error = await checkPorts(
      [flag("port", 9292, "192.0.2.1"), flag("region-port", 9293, "192.0.2.1")],
      "--host 192.0.2.1",
    );
    expect(error?.message).toBe(
      "--host 192.0.2.1: 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL); pick one it has, such as 127.0.0.1 (or 0.0.0.0 for all)",
    );
  });
});
