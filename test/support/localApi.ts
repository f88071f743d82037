import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP API of a test's own on a free loopback port. */
export interface LocalApi {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startLocalApi(handle: RequestListener): Promise<LocalApi> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
