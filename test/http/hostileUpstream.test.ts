import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../src/config/schema.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { UpstreamError } from '../../src/http/UpstreamError.js';

/** Short, so each case is quick, and long enough that event-loop jitter stays well inside the 10 % margin. */
const TIMEOUT_MS = 1000;
/** What a loaded two-core machine may add to a timer that fired on time. */
const SLACK_MS = 250;

/** Responses the upstream closed (the client dropped the connection), each recorded as it happens. */
const closed: ServerResponse[] = [];
const http = createServer((request, response) => {
  response.on('close', () => closed.push(response));
  switch (new URL(request.url ?? '/', 'http://x').searchParams.get('case')) {
    case 'trickle': {
      // One byte every 0.9 × timeoutMs, forever: no single wait is long, the whole body never ends.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":"success","data":{"pad":"');
      const timer = setInterval(() => response.write('x'), TIMEOUT_MS * 0.9);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case 'headers-then-stall':
      response.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
      return;
    case 'silent':
      return;
    default:
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"items":[]},"message":"ok"}');
  }
});
/** Accepts TCP connections and never says a word: a TLS handshake with it never completes. */
const silentSockets = new Set<Socket>();
const tcp = createTcpServer((socket) => {
  silentSockets.add(socket);
  socket.on('close', () => silentSockets.delete(socket));
});
let httpUrl: string;
let tcpPort: number;

beforeAll(async () => {
  await Promise.all([once(http.listen(0, '127.0.0.1'), 'listening'), once(tcp.listen(0, '127.0.0.1'), 'listening')]);
  httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  tcpPort = (tcp.address() as AddressInfo).port;
});
afterAll(async () => {
  http.closeAllConnections();
  for (const socket of silentSockets) socket.destroy();
  await Promise.all([new Promise((resolve) => http.close(resolve)), new Promise((resolve) => tcp.close(resolve))]);
});

const sourceClient = (baseUrl: string, timeoutMs: number) =>
  new SourceClient('hostile', sourceSchema.parse({ baseUrl, apiKey: 'secret-key', path: '/api', timeoutMs }), { connections: 1 });

/** The error a request failed with, and how long it took. */
async function failureOf(client: SourceClient, params: Record<string, string>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = performance.now();
  const error = await client.fetchPage(params).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { error, elapsedMs: performance.now() - started };
}

const activeTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('one deadline of timeoutMs for the whole request', () => {
  it.each([
    ['a body trickling one byte every 0.9 × timeoutMs', 'trickle'],
    ['headers, then silence', 'headers-then-stall'],
    ['no answer at all', 'silent'],
  ])('abandons %s within 1.1 × timeoutMs, as a retryable timeout', async (_case, upstreamCase) => {
    const client = sourceClient(httpUrl, TIMEOUT_MS);
    const closedBefore = closed.length;
    const { error, elapsedMs } = await failureOf(client, { case: upstreamCase });
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toEqual(expect.objectContaining({ kind: 'timeout', retryable: true, message: expect.stringContaining(`hostile: no complete response within ${TIMEOUT_MS} ms`) as unknown }));
    expect(elapsedMs).toBeLessThan(1.1 * TIMEOUT_MS + SLACK_MS);
    // The abandoned response's connection is closed, not left in the pool, and the pool still serves.
    await expect.poll(() => closed.length).toBeGreaterThan(closedBefore);
    await expect(client.fetchPage({ case: 'fast' })).resolves.toMatchObject({ envelope: { status: 'success' } });
    await client.close();
  });

  it('abandons a connection whose TLS handshake never completes within 1.1 × timeoutMs', async () => {
    const client = sourceClient(`https://127.0.0.1:${tcpPort}`, TIMEOUT_MS);
    const { error, elapsedMs } = await failureOf(client, {});
    expect(error).toEqual(expect.objectContaining({ kind: 'timeout', retryable: true }));
    expect(elapsedMs).toBeLessThan(1.1 * TIMEOUT_MS + SLACK_MS);
    // Closing waits for the abandoned attempt, which undici's connect timeout ends.
    await client.close();
  });

  it('answers a prompt body and leaves no timer behind to hold the process open', async () => {
    // A deadline far off: a timer not cleared would still be pending when the request is done.
    const client = sourceClient(httpUrl, 60_000);
    const timersBefore = activeTimers();
    await expect(client.fetchPage({ case: 'fast' })).resolves.toMatchObject({ envelope: { status: 'success', message: 'ok' } });
    expect(activeTimers()).toBe(timersBefore);
    await client.close();
  });
});
