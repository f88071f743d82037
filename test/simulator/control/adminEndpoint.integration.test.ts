import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { explorerUrl, getJson, type Envelope } from '../httpClient.js';

let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 9, chain: { blockIntervalMs: 0 }, faults: { webhook: { latencyMs: 5 } } });
});

beforeEach(() => {
  simulator.reset();
});

afterAll(async () => {
  await simulator.close();
});

async function admin<Data = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope<Data> }> {
  const response = await fetch(`${simulator.adminUrl}${path}`, {
    method,
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.status, body: (await response.json()) as Envelope<Data> };
}

const blockNumberStatus = async () =>
  (await getJson(explorerUrl(simulator, { module: 'proxy', action: 'eth_blockNumber' }), simulator.apiKey).catch(() => ({ status: -1 }))).status;

describe('admin endpoint: faults', () => {
  it('changes an endpoint’s faults at run time with PUT /faults/<endpoint>', async () => {
    expect(await blockNumberStatus()).toBe(200);
    const put = await admin('PUT', '/faults/explorer', { shares: { serverError: 1 }, serverErrorStatuses: [503] });
    expect(put.status).toBe(200);
    expect(await blockNumberStatus()).toBe(503);
    await admin('PUT', '/faults/explorer', {});
    expect(await blockNumberStatus()).toBe(200);
  });

  it('shows the faults in force with GET /faults', async () => {
    await admin('PUT', '/faults/music', { latencyMs: 40, retryAfter: { form: 'httpDate' } });
    const { body } = await admin<Record<string, { latencyMs: number; retryAfter: { seconds: number; form: string } }>>('GET', '/faults');
    expect(body.data.music).toMatchObject({ latencyMs: 40, retryAfter: { seconds: 1, form: 'httpDate' } });
    expect(body.data.explorer).toMatchObject({ latencyMs: 0 });
  });

  it('rejects a share outside 0..1 with 400 naming the field', async () => {
    const { status, body } = await admin('PUT', '/faults/music', { shares: { hang: 2 } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 'error', data: { error: 'INVALID_FAULTS' } });
    expect(body.message).toContain('shares.hang');
  });

  it('rejects shares adding up to more than 1 with 400', async () => {
    const { status } = await admin('PUT', '/faults/music', { shares: { reset: 0.6, hang: 0.6 } });
    expect(status).toBe(400);
  });

  it('rejects a body that is not JSON with 400', async () => {
    const { status, body } = await admin('PUT', '/faults/music', '{latency');
    expect(status).toBe(400);
    expect(body.data).toEqual({ error: 'INVALID_JSON' });
  });

  it('answers 404 for an unknown endpoint', async () => {
    const { status } = await admin('PUT', '/faults/database', {});
    expect(status).toBe(404);
  });

  it('restores the start-up faults with POST /reset', async () => {
    await admin('PUT', '/faults/webhook', { latencyMs: 500 });
    await admin('POST', '/reset');
    const { body } = await admin<{ latencyMs: number }>('GET', '/faults/webhook');
    expect(body.data.latencyMs).toBe(5);
  });
});

describe('admin endpoint: stats', () => {
  it('counts requests per endpoint with the most seen in one second', async () => {
    await Promise.all(Array.from({ length: 12 }, () => blockNumberStatus()));
    const { body } = await admin<Record<string, { count: number; maxPerSecond: number; timestamps: number[] }>>('GET', '/stats');
    expect(body.data.explorer).toMatchObject({ count: 12, maxPerSecond: 12 });
    expect(body.data.explorer!.timestamps).toHaveLength(12);
    expect(body.data.music).toMatchObject({ count: 0, maxPerSecond: 0 });
  });

  it('measures the per-second maximum over a sliding window that spans second boundaries', async () => {
    let now = Date.parse('2030-01-01T00:00:00.800Z');
    const clocked = await startSimulator({ seed: 9, now: () => now });
    const burst = (size: number) =>
      Promise.all(
        Array.from({ length: size }, async () => {
          const response = await fetch(explorerUrl(clocked, { module: 'proxy', action: 'eth_blockNumber' }), { headers: { authorization: `Bearer ${clocked.apiKey}` } });
          await response.arrayBuffer();
        }),
      );
    try {
      await burst(3);
      now += 400;
      await burst(3);
      now += 1000;
      await burst(2);
      expect(clocked.stats().explorer).toMatchObject({ count: 8, maxPerSecond: 6 });
    } finally {
      await clocked.close();
    }
  });

  it('starts counting again after POST /stats/reset', async () => {
    await blockNumberStatus();
    await admin('POST', '/stats/reset');
    expect(simulator.stats().explorer).toMatchObject({ count: 0, maxPerSecond: 0, firstAt: null });
  });
});
