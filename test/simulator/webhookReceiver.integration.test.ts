import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import type { WebhookRequest } from '../../src/simulator/webhookReceiver.js';
import type { Envelope } from './httpClient.js';

let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 3, webhook: { maxRequestsPerUuid: 3 } });
});

beforeEach(() => {
  simulator.reset();
});

afterAll(async () => {
  await simulator.close();
});

async function deliver(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Envelope }> {
  const response = await fetch(`${simulator.webhookBaseUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.status, body: (await response.json()) as Envelope };
}

async function logged(uuid: string, query = ''): Promise<WebhookRequest[]> {
  const response = await fetch(`${simulator.webhookBaseUrl}/${uuid}/requests${query}`);
  return ((await response.json()) as Envelope<{ requests: WebhookRequest[] }>).data.requests;
}

describe('webhook receiver', () => {
  it('records a delivery and lists it with method, headers, query, raw body and time', async () => {
    const before = Date.now();
    const answer = await deliver(`/${simulator.webhookUuid}?attempt=1`, '{"event":"sync.done"}', { 'webhook-id': 'msg_1' });
    expect(answer).toEqual({ status: 200, body: { status: 'success', data: { id: simulator.webhookUuid, received: 1 }, message: 'received' } });
    const [request] = await logged(simulator.webhookUuid);
    expect(request).toMatchObject({ method: 'POST', query: { attempt: '1' }, body: '{"event":"sync.done"}' });
    expect(request!.headers).toMatchObject({ 'webhook-id': 'msg_1', 'content-type': 'application/json' });
    expect(Date.parse(request!.receivedAt)).toBeGreaterThanOrEqual(before - 1);
  });

  it('records a delivery it answers with the error-envelope fault, since its HTTP 200 tells the sender the delivery arrived', async () => {
    simulator.setFaults('webhook', { shares: { errorEnvelope: 1 } });
    const answer = await deliver(`/${simulator.webhookUuid}`, '{"event":"job.succeeded"}');
    expect(answer).toMatchObject({ status: 200, body: { status: 'error', data: { error: 'TEMPORARY_ERROR' } } });
    // Read in process: the log's own endpoint would draw the fault too.
    expect(simulator.requests(simulator.webhookUuid).map((request) => request.body)).toEqual(['{"event":"job.succeeded"}']);
  });

  it('lists deliveries oldest first and counts them', async () => {
    await deliver(`/${simulator.webhookUuid}`, 'first');
    const second = await deliver(`/${simulator.webhookUuid}`, 'second');
    expect(second.body.data).toMatchObject({ received: 2 });
    expect((await logged(simulator.webhookUuid)).map((request) => request.body)).toEqual(['first', 'second']);
  });

  it('lists only the requests after the N-th with ?after=N, numbered in order', async () => {
    for (const body of ['1', '2', '3']) await deliver(`/${simulator.webhookUuid}`, body);
    expect((await logged(simulator.webhookUuid, '?after=1')).map((request) => [request.seq, request.body])).toEqual([
      [2, '2'],
      [3, '3'],
    ]);
    expect(await logged(simulator.webhookUuid, '?after=3')).toEqual([]);
  });

  it('lists from the oldest kept request when ?after points before it', async () => {
    for (const body of ['1', '2', '3', '4', '5']) await deliver(`/${simulator.webhookUuid}`, body);
    expect((await logged(simulator.webhookUuid, '?after=1')).map((request) => request.body)).toEqual(['3', '4', '5']);
    expect((await logged(simulator.webhookUuid, '?after=3')).map((request) => request.body)).toEqual(['4', '5']);
  });

  it('answers a ?after that is not a whole number with 400', async () => {
    const response = await fetch(`${simulator.webhookBaseUrl}/${simulator.webhookUuid}/requests?after=soon`);
    expect(response.status).toBe(400);
  });

  it('treats the UUID case-insensitively', async () => {
    await deliver(`/${simulator.webhookUuid.toUpperCase()}`, 'shouted');
    expect(simulator.requests(simulator.webhookUuid).map((request) => request.body)).toEqual(['shouted']);
  });

  it('keeps each UUID’s log apart', async () => {
    const other = '9b2f6a3e-1c4d-4e8f-a2b3-c4d5e6f70812';
    await deliver(`/${other}`, 'elsewhere');
    expect(await logged(simulator.webhookUuid)).toEqual([]);
    expect((await logged(other)).map((request) => request.body)).toEqual(['elsewhere']);
  });

  it('keeps only the latest maxRequestsPerUuid deliveries while counting all', async () => {
    let last: { body: Envelope } | undefined;
    for (const body of ['1', '2', '3', '4', '5']) last = await deliver(`/${simulator.webhookUuid}`, body);
    expect(last!.body.data).toMatchObject({ received: 5 });
    expect((await logged(simulator.webhookUuid)).map((request) => request.body)).toEqual(['3', '4', '5']);
  });

  it.each([['/not-a-uuid'], ['/'], ['/9b2f6a3e-1c4d-4e8f-a2b3']])('answers %s with 404 and an error envelope', async (path) => {
    const { status, body } = await deliver(path, '{}');
    expect(status).toBe(404);
    expect(body.status).toBe('error');
  });

  it('derives the webhook UUID from the seed', async () => {
    const twin = await startSimulator({ seed: 3 });
    const other = await startSimulator({ seed: 4 });
    try {
      expect(twin.webhookUuid).toBe(simulator.webhookUuid);
      expect(other.webhookUuid).not.toBe(simulator.webhookUuid);
      expect(simulator.webhookUuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });
});
