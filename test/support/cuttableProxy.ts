import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback TCP proxy in front of one server, whose line can be cut (a server out of reach) and restored. */
export interface CuttableProxy {
  port: number;
  /** Drops every connection through it, and from now on every new one as it comes. */
  cut(): void;
  /** Passes new connections on again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startCuttableProxy(host: string, port: number): Promise<CuttableProxy> {
  let cut = false;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      open.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        open.delete(socket);
        other.destroy();
      });
      socket.pipe(other);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
