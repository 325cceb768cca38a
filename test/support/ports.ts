import { type AddressInfo, createServer } from "node:net";

/** A plain TCP listener on a free port of 127.0.0.1, so a server given that port cannot bind. */
export async function occupyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
