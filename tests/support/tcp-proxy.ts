import net from "node:net";

/**
 * A TCP relay to a real server (PostgreSQL here) that a test can cut and restore: while cut, connections
 * in flight are reset and new ones refused, as when the database host goes away. Bytes pass unchanged.
 */
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (typeof address === "object" && address) this.port = address.port;
    this.server = server;
  }

  /** Refuses new connections and resets the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.resetAndDestroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** Listens again on the same port. */
  restore(): Promise<void> {
    return this.open();
  }
}
