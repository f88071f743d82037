import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the proxy holds back from the upstream until the test releases it. */
export interface HeldRequest {
  /** Path and query, as the client sent them. */
  url: string;
  /** Passes the request on; its answer goes back to the client. */
  release(): void;
}

/** A loopback HTTP proxy in front of one upstream: passes every request on, except one it was told to hold. */
export interface HoldingProxy {
  baseUrl: string;
  /**
   * Holds the next request to arrive, from now on, until it is released; resolves once it has
   * arrived. The requests after it pass as usual.
   */
  holdNext(): Promise<HeldRequest>;
  close(): Promise<void>;
}

export async function startHoldingProxy(upstreamBaseUrl: string): Promise<HoldingProxy> {
  const upstream = new URL(upstreamBaseUrl);
  let holdArrival: ((held: HeldRequest) => void) | undefined;
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const passOn = () => {
      const outgoing = httpRequest({ host: upstream.hostname, port: upstream.port, method: request.method, path: url, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      outgoing.on('error', () => response.destroy());
      request.pipe(outgoing);
    };
    const hold = holdArrival;
    holdArrival = undefined;
    if (hold) hold({ url, release: passOn });
    else passOn();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holdNext: () => new Promise((resolve) => (holdArrival = resolve)),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
