import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SimulatorError } from '../../src/simulator/SimulatorError.js';
import { startSimulator } from '../../src/simulator/startSimulator.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { getJson, musicUrl } from './httpClient.js';

/** A port P such that P..P+3 were all free a moment ago. */
async function freePortBlock(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const servers = await Promise.all(
      [0, 1, 2, 3].map(
        (offset) =>
          new Promise<ReturnType<typeof createServer> | undefined>((resolve) => {
            const server = createServer();
            server.once('error', () => resolve(undefined));
            server.listen(base + offset, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    await Promise.all(servers.map((server) => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))));
    if (servers.every((server) => server !== undefined)) return base;
  }
  throw new Error('no block of four free ports found');
}

describe('startSimulator', () => {
  it('with no options, serves the default catalogue: its 10,000th artist, and none past it', async () => {
    const simulator = await startSimulator();
    try {
      const artist = (q: string) => getJson(musicUrl(simulator, { method: 'artist.getInfo', q }), simulator.apiKey).then((response) => response.body.status);
      expect(await artist('ar-009999')).toBe('success');
      expect(await artist('ar-010000')).toBe('error');
    } finally {
      await simulator.close();
    }
  });

  it('serves music, explorer, webhook and admin on P, P+1, P+2 and P+3 for a fixed port P', async () => {
    const port = await freePortBlock();
    const simulator = await startSimulator({ port });
    try {
      expect([simulator.musicBaseUrl, simulator.explorerBaseUrl, simulator.webhookBaseUrl, simulator.adminUrl]).toEqual(
        [0, 1, 2, 3].map((offset) => `http://127.0.0.1:${port + offset}`),
      );
      expect((await fetch(`${simulator.adminUrl}/faults`)).status).toBe(200);
    } finally {
      await simulator.close();
    }
  });

  it('fails with listen_failed when a fixed port is taken', async () => {
    const first = await startSimulator();
    const port = Number(new URL(first.musicBaseUrl).port);
    try {
      await expect(startSimulator({ port })).rejects.toMatchObject({ name: 'SimulatorError', kind: 'listen_failed' });
    } finally {
      await first.close();
    }
  });

  it('rejects unusable options with invalid_options naming the option', async () => {
    const error = await startSimulator({ chain: { txsPerBlock: 30, activeAddresses: 20 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error).toMatchObject({ kind: 'invalid_options', optionPath: 'chain.txsPerBlock' });
  });

  it('rejects bad start-up faults with invalid_options', async () => {
    await expect(startSimulator({ faults: { music: { shares: { hang: 1.5 } } } })).rejects.toMatchObject({
      kind: 'invalid_options',
      optionPath: 'faults.music.shares.hang',
    });
  });

  it('closes while a request hangs, ending the hung socket', async () => {
    const simulator = await startSimulator({ faults: { explorer: { shares: { hang: 1 } } } });
    const hung = fetch(`${simulator.explorerBaseUrl}/api?module=proxy&action=eth_blockNumber`).then(
      () => 'answered',
      () => 'failed',
    );
    await waitFor('the request to reach the explorer', () => simulator.stats().explorer.count === 1, 5_000);

    // Left open, the socket would hold close() and the request until the test times out.
    await simulator.close();

    expect(await hung).toBe('failed');
  });
});
