import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { UsageError } from "./command.ts";
import { type ListenFlag, listenError } from "./listen-error.ts";

const FLAGS: ListenFlag[] = [
  { flag: "--port 9292", host: "127.0.0.1", port: 9292 },
  { flag: "--region-port 9293", host: "127.0.0.1", port: 9293 },
];

/** The error node gives for `listen(port, host)`, from a real bind. */
function bindFailure(port: number, host: string): Promise<unknown> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", resolve);
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}

describe("listenError", () => {
  it("names the flag whose port is taken, the address and what to do", () => {
    const error = Object.assign(new Error("listen EADDRINUSE"), {
      code: "EADDRINUSE",
      syscall: "listen",
      address: "127.0.0.1",
      port: 9293,
    });
    const usage = listenError(error, FLAGS, "--host 127.0.0.1");
    expect(usage).toBeInstanceOf(UsageError);
    expect(usage?.message).toBe(
      "--region-port 9293: address 127.0.0.1:9293 is in use (EADDRINUSE); pick another port or 0 for a free one",
    );
  });

  it("names every flag when the port matches none of them", () => {
    const error = { code: "EADDRINUSE", syscall: "listen", address: "127.0.0.1", port: 1 };
    expect(listenError(error, FLAGS, "--host 127.0.0.1")?.message).toMatch(
      /^--port 9292, --region-port 9293: address 127\.0\.0\.1:1 is in use/,
    );
  });

  it("names the host flag for an address this machine does not have (a real bind)", async () => {
    const error = await bindFailure(0, "192.0.2.1");
    expect(
      listenError(error, [{ flag: "--port 0", host: "192.0.2.1", port: 0 }], "--host 192.0.2.1")?.message,
    ).toBe(
      "--host 192.0.2.1: 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL); pick one it has, such as 127.0.0.1 (or 0.0.0.0 for all)",
    );
  });

  it("names the host flag for a host name that does not resolve, and only for that host", () => {
    const flags = [{ flag: "--port 1", host: "nowhere.invalid", port: 1 }];
    const error = { code: "ENOTFOUND", syscall: "getaddrinfo", hostname: "nowhere.invalid" };
    expect(listenError(error, flags, "--host nowhere.invalid")?.message).toMatch(
      /^--host nowhere\.invalid: nowhere\.invalid does not resolve to an address \(ENOTFOUND\)/,
    );
    expect(listenError({ ...error, hostname: "apiserver.invalid" }, flags, "--host x")).toBeUndefined();
  });

  it("leaves every other error alone (a failed connect, a plain error)", () => {
    expect(
      listenError({ code: "EADDRNOTAVAIL", syscall: "connect", port: 9292 }, FLAGS, "--host x"),
    ).toBeUndefined();
    expect(listenError({ code: "ECONNREFUSED", syscall: "connect" }, FLAGS, "--host x")).toBeUndefined();
    expect(listenError(new Error("boom"), FLAGS, "--host x")).toBeUndefined();
    expect(listenError(undefined, FLAGS, "--host x")).toBeUndefined();
  });
});
