import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { startLocalApi, type LocalApi } from '../support/localApi.js';
import { waitFor } from '../support/waitFor.js';

const REPLY = '{"status":"success","data":{"items":[]},"message":"ok"}';

/** An upstream that holds every request it gets until the test answers them, counting those open at once. */
async function holdingUpstream(): Promise<LocalApi & { open: () => number; answerAll: () => void }> {
  const held: ServerResponse[] = [];
  let answering = false;
  const answer = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end(REPLY);
  const api = await startLocalApi((_request, response) => {
    if (answering) return answer(response);
    held.push(response);
  });
  return {
    ...api,
    open: () => held.length,
    answerAll: () => {
      answering = true;
      held.splice(0).forEach(answer);
    },
  };
}

let cleanUp: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanUp.reverse()) await step();
  cleanUp = [];
});

/** A registry for a worker of `concurrency`, its one source on `baseUrl`. */
function registryFor(baseUrl: string, concurrency: number): SourceRegistry {
  const config = parseConfig(
    {
      sources: { music: { baseUrl, apiKey: 'k-music-0123', path: '/2.0/' } },
      jobs: [{ name: 'artists', source: 'music', records: { path: 'items', kind: 'artist' }, queries: [{ params: { method: 'artist.search' } }] }],
      worker: { concurrency },
    },
    'test',
    {},
  );
  const registry = new SourceRegistry(config);
  cleanUp.push(() => registry.close());
  return registry;
}

/** Sends `count` requests at once and says how many reached the upstream together before any was answered. */
async function requestsOpenTogether(concurrency: number, count: number, expected: number): Promise<number> {
  const upstream = await holdingUpstream();
  cleanUp.push(() => upstream.close());
  const client = registryFor(upstream.baseUrl, concurrency).client('music');
  const pages = Array.from({ length: count }, (_, index) => client.fetchPage({ page: String(index + 1) }));
  let open: number;
  try {
    open = await waitFor(`${expected} requests open at the upstream at once`, () => upstream.open() >= expected && upstream.open(), 5_000);
  } finally {
    upstream.answerAll();
  }
  expect((await Promise.all(pages)).map((page) => page.envelope.status)).toEqual(Array.from({ length: count }, () => 'success'));
  return open;
}

describe('SourceRegistry', () => {
  it("keeps a connection to a source for each run the worker runs at once: 16 runs' requests reach it together", async () => {
    expect(await requestsOpenTogether(16, 20, 16)).toBe(16);
  });

  it('keeps four connections at least, for one run and its pages ahead, at concurrency 1', async () => {
    expect(await requestsOpenTogether(1, 6, 4)).toBe(4);
  });
});
