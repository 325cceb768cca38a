import { createServer, type Server, type Socket } from "node:net";

/**
 * A TCP server on 127.0.0.1 that accepts connections and never answers (an endpoint behind a
 * proxy or firewall that holds connections): it counts the connections it holds open.
 */
export class SilentServer {
  private readonly server: Server;
  readonly open = new Set<Socket>();

  constructor() {
    this.server = createServer((socket) => {
      this.open.add(socket);
      socket.on("close", () => this.open.delete(socket));
      socket.on("error", () => {});
      // Read and drop what comes, so a client's writes never wait on a full buffer.
      socket.resume();
    });
  }

  /** Listens on a free port; resolves with its URL (http://127.0.0.1:<port>). */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    if (typeof address !== "object" || address === null) throw new Error("the silent server has no address");
    return `http://127.0.0.1:${address.port}`;
  }

  /** Stops listening and drops the connections it holds: the calls waiting on it fail at once. */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise((resolve) => this.server.close(resolve));
    for (const socket of this.open) socket.destroy();
    await closed;
  }
}
