import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultGate } from '../../../src/simulator/control/FaultGate.js';
import { resolveFaults } from '../../../src/simulator/control/faults.js';
import type { SimulatorOptions } from '../../../src/simulator/simulatorOptions.js';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { explorerUrl, getJson, musicUrl } from '../httpClient.js';

let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 5, music: { artists: 500 }, chain: { blockIntervalMs: 0 } });
});

beforeEach(() => {
  simulator.reset();
});

afterAll(async () => {
  await simulator.close();
});

const musicRequest = (init: RequestInit = {}) =>
  fetch(musicUrl(simulator, { method: 'artist.getInfo', q: 'ar-000001' }), { ...init, headers: { authorization: `Bearer ${simulator.apiKey}` } });

const explorerRequest = () =>
  fetch(explorerUrl(simulator, { module: 'proxy', action: 'eth_blockNumber' }), { headers: { authorization: `Bearer ${simulator.apiKey}` } });

/** A simulator of its own on a clock the test moves, from 2030-01-01T00:00:00Z, with these faults at start. */
async function onClock(
  faults: SimulatorOptions['faults'],
  test: (clock: { simulator: Simulator; status: () => Promise<number>; advance: (ms: number) => void }) => Promise<void>,
): Promise<void> {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const clocked = await startSimulator({ seed: 5, now: () => now, faults });
  // The explorer's answer to one request now, by status.
  const status = async () => (await fetch(explorerUrl(clocked, { module: 'proxy', action: 'eth_blockNumber' }), { headers: { authorization: `Bearer ${clocked.apiKey}` } })).status;
  try {
    await test({ simulator: clocked, status, advance: (ms) => (now += ms) });
  } finally {
    await clocked.close();
  }
}

async function statuses(count: number, request: () => Promise<Response> = musicRequest): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await request();
    await response.arrayBuffer();
    seen.push(response.status);
  }
  return seen;
}

describe('faults: latency', () => {
  it('delays every answer by latencyMs', async () => {
    simulator.setFaults('music', { latencyMs: 150 });
    const started = performance.now();
    const response = await musicRequest();
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('adds to latencyMs a jitter below jitterMs that differs from one request to the next', () => {
    const resolved = resolveFaults({ latencyMs: 100, jitterMs: 120 }, 0);
    if (!resolved.ok) throw new Error(resolved.error.message);
    const gate = new FaultGate(5, 0, resolved.faults);

    const jitters = Array.from({ length: 100 }, () => gate.decide(0).delayMs - 100);

    expect(Math.min(...jitters)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...jitters)).toBeLessThan(120);
    expect(new Set(jitters).size).toBe(jitters.length);
  });
});

describe('faults: error statuses', () => {
  it('answers the share of serverError with 500, 502 or 503 and an error envelope', async () => {
    simulator.setFaults('music', { shares: { serverError: 0.3 } });
    const seen = await statuses(300);
    const failed = seen.filter((status) => status !== 200);
    expect(failed.length / seen.length).toBeGreaterThan(0.2);
    expect(failed.length / seen.length).toBeLessThan(0.4);
    expect(new Set(failed)).toEqual(new Set([500, 502, 503]));
  });

  it('answers serverError with the music envelope, error 11', async () => {
    simulator.setFaults('music', { shares: { serverError: 1 }, serverErrorStatuses: [502] });
    const { status, body } = await getJson(musicUrl(simulator, { method: 'artist.getInfo', q: 'ar-000001' }), simulator.apiKey);
    expect(status).toBe(502);
    expect(body).toMatchObject({ status: 'error', data: { error: 11 } });
  });

  it('answers tooManyRequests with 429 and Retry-After in seconds', async () => {
    simulator.setFaults('music', { shares: { tooManyRequests: 1 }, retryAfter: { seconds: 7 } });
    const { status, headers, body } = await getJson(musicUrl(simulator, { method: 'artist.getInfo', q: 'ar-000001' }), simulator.apiKey);
    expect(status).toBe(429);
    expect(headers.get('retry-after')).toBe('7');
    expect(body.data).toEqual({ error: 29 });
  });

  it('answers tooManyRequests with Retry-After as an HTTP-date that many seconds ahead', async () => {
    simulator.setFaults('explorer', { shares: { tooManyRequests: 1 }, retryAfter: { seconds: 3, form: 'httpDate' } });
    const before = Date.now();
    const response = await explorerRequest();
    const retryAt = Date.parse(response.headers.get('retry-after') ?? '');
    expect(response.status).toBe(429);
    expect(retryAt).toBeGreaterThanOrEqual(before + 3000 - 1000);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + 3000 + 1000);
    expect(((await response.json()) as { data: unknown }).data).toEqual({ error: 'RATE_LIMIT' });
  });
});

describe('faults: broken connections and bodies', () => {
  it('resets the connection without an answer', async () => {
    simulator.setFaults('music', { shares: { reset: 1 } });
    await expect(musicRequest()).rejects.toThrow();
  });

  it('hangs until the client gives up', async () => {
    simulator.setFaults('music', { shares: { hang: 1 } });
    const started = performance.now();
    await expect(musicRequest({ signal: AbortSignal.timeout(200) })).rejects.toThrow(/abort|timeout/i);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(simulator.stats().music.count).toBe(1);
  });

  it('sends malformed JSON in a well-framed 200', async () => {
    simulator.setFaults('music', { shares: { malformedJson: 1 } });
    const response = await musicRequest();
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
  });

  it('truncates the body short of its Content-Length and drops the connection', async () => {
    simulator.setFaults('music', { shares: { truncatedBody: 1 } });
    const response = await musicRequest();
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    await expect(response.text()).rejects.toThrow();
  });
});

describe('faults: error envelopes', () => {
  it('answers music with HTTP 200 and error 29 or 16', async () => {
    simulator.setFaults('music', { shares: { errorEnvelope: 1 } });
    const codes = new Set<unknown>();
    for (let i = 0; i < 20; i++) {
      const { status, body } = await getJson(musicUrl(simulator, { method: 'artist.getInfo', q: 'ar-000001' }), simulator.apiKey);
      expect(status).toBe(200);
      expect(body.status).toBe('error');
      codes.add(body.data.error);
    }
    expect(codes).toEqual(new Set([29, 16]));
  });

  it('answers explorer with HTTP 200, NOTOK and a rate-limit message', async () => {
    simulator.setFaults('explorer', { shares: { errorEnvelope: 1 } });
    const { status, body } = await getJson(explorerUrl(simulator, { module: 'proxy', action: 'eth_blockNumber' }), simulator.apiKey);
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'error', data: { error: 'NOTOK' }, message: 'Max rate limit reached' });
  });
});

describe('faults: outages and scripted faults', () => {
  it('answers 503 to everything during an outage of forMs, then recovers', async () => {
    await onClock({}, async (clock) => {
      clock.simulator.setFaults('explorer', { outage: { forMs: 250 } });
      expect([await clock.status(), await clock.status(), await clock.status()]).toEqual([503, 503, 503]);
      clock.advance(250);
      expect(await clock.status()).toBe(503);
      clock.advance(1);
      expect(await clock.status()).toBe(200);
    });
  });

  it('answers 503 inside an absolute outage window only', async () => {
    await onClock({ explorer: { outage: { from: '2030-01-01T00:00:10Z', until: '2030-01-01T00:00:20Z' } } }, async (clock) => {
      expect(await clock.status()).toBe(200);
      clock.advance(15_000);
      expect(await clock.status()).toBe(503);
      clock.advance(10_000);
      expect(await clock.status()).toBe(200);
    });
  });

  it('applies a sequence to the next requests in order, then the shares', async () => {
    simulator.setFaults('music', { sequence: ['serverError', 'tooManyRequests', 'none', 'serverError'], serverErrorStatuses: [503] });
    expect(await statuses(6)).toEqual([503, 429, 200, 503, 200, 200]);
  });

  it('applies everyNth to every n-th request', async () => {
    simulator.setFaults('explorer', { everyNth: { n: 3, kind: 'tooManyRequests' } });
    expect(await statuses(7, explorerRequest)).toEqual([200, 200, 429, 200, 200, 429, 200]);
  });

  it('keeps one endpoint’s faults off the others', async () => {
    simulator.setFaults('music', { shares: { serverError: 1 } });
    expect(await statuses(2, explorerRequest)).toEqual([200, 200]);
  });
});

describe('faults: reproducibility', () => {
  it('makes the same decisions for the same seed and request order, and others for another fault seed', async () => {
    const faults = { shares: { serverError: 0.25, tooManyRequests: 0.25 }, serverErrorStatuses: [500] };
    simulator.setFaults('music', faults);
    const first = await statuses(40);
    simulator.setFaults('music', faults);
    const again = await statuses(40);
    simulator.setFaults('music', { ...faults, seed: 99 });
    const reseeded = await statuses(40);
    expect(again).toEqual(first);
    expect(reseeded).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 500]));
  });
});
