import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { waitFor } from '../support/waitFor.js';

/** An upstream that holds each request until the test answers them all (and then every later one at once), and counts the connections made to it. */
let server: Server;
let baseUrl: string;
const held: ServerResponse[] = [];
let holding = true;
let connections = 0;

const answer = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"items":[]},"message":"ok"}');
const answerAll = () => {
  holding = false;
  held.splice(0).forEach(answer);
};

beforeAll(async () => {
  server = createServer((_request, response) => (holding ? void held.push(response) : answer(response)));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  answerAll();
  server.closeAllConnections();
  holding = true;
  connections = 0;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function registryFor(worker: { concurrency: number }, source: Record<string, unknown> = {}): SourceRegistry {
  const config = parseConfig(
    {
      sources: { music: { baseUrl, apiKey: 'k-music-0123', path: '/2.0/', ...source } },
      jobs: [{ name: 'artists', source: 'music', records: { path: 'items', kind: 'artist' }, queries: [{ params: { method: 'artist.search' } }] }],
      worker,
    },
    'test',
    {},
  );
  return new SourceRegistry(config);
}

/**
 * Sends `count` requests at once through the registry's client, waits until `together` of them are
 * held by the upstream at the same time, then answers every one; returns how many connections were made.
 */
async function connectionsFor(registry: SourceRegistry, count: number, together: number): Promise<number> {
  const client = registry.client('music');
  const pages = Promise.all(Array.from({ length: count }, (_, index) => client.fetchPage({ page: String(index + 1) })));
  try {
    await waitFor(`${together} requests held by the upstream at once`, () => held.length >= together, 5_000);
  } finally {
    answerAll();
    await pages.catch(() => undefined);
    await registry.close();
  }
  expect((await pages).every((page) => page.envelope.status === 'success')).toBe(true);
  return connections;
}

describe('SourceRegistry', () => {
  it("keeps a connection to a source for each request the worker's runs may have in flight: 6 at concurrency 2", async () => {
    expect(await connectionsFor(registryFor({ concurrency: 2 }), 8, 6)).toBe(6);
  });

  it("keeps no more connections to a source than its `connections` setting, the other requests waiting for one", async () => {
    expect(await connectionsFor(registryFor({ concurrency: 2 }, { connections: 2 }), 5, 2)).toBe(2);
  });
});
