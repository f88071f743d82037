import { once } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../src/config/schema.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { UpstreamError } from '../../src/http/UpstreamError.js';

/** Short, so each case is quick. */
const TIMEOUT_MS = 1000;
/** Far past the deadline: a request still under way then has no deadline at all (the test fails on its own timeout). */
const NO_DEADLINE_MS = 10 * TIMEOUT_MS;

/**
 * Responses closed (by the client dropping the connection, or done), each recorded as it happens, with
 * whether it was closed before 1.8 × timeoutMs had passed since its request arrived: the client's
 * deadline timer is due first, and timers fire in the order they are due however late, so a deadline of
 * timeoutMs closes it first, and a later deadline or none does not.
 */
const closed: { upstreamCase: string | null; inTime: boolean }[] = [];
const http = createServer((request, response) => {
  const upstreamCase = new URL(request.url ?? '/', 'http://x').searchParams.get('case');
  let passed = false;
  const late = setTimeout(() => (passed = true), 1.8 * TIMEOUT_MS).unref();
  response.on('close', () => {
    clearTimeout(late);
    closed.push({ upstreamCase, inTime: !passed });
  });
  switch (upstreamCase) {
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

/**
 * The error a request failed with, how long it took, and whether it failed before a timer of 1.8 ×
 * timeoutMs set just before the request had fired (which a deadline of timeoutMs, due first, makes it
 * do however late timers run).
 */
async function failureOf(client: SourceClient, params: Record<string, string>): Promise<{ error: unknown; elapsedMs: number; inTime: boolean }> {
  let passed = false;
  const late = setTimeout(() => (passed = true), 1.8 * TIMEOUT_MS);
  const started = performance.now();
  const error = await client.fetchPage(params).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  const inTime = !passed;
  clearTimeout(late);
  return { error, elapsedMs: performance.now() - started, inTime };
}

const activeTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('one deadline of timeoutMs for the whole request', () => {
  it.each([
    ['a body trickling one byte every 0.9 × timeoutMs', 'trickle'],
    ['headers, then silence', 'headers-then-stall'],
    ['no answer at all', 'silent'],
  ])('abandons %s once timeoutMs has passed and before 1.8 × timeoutMs, as a retryable timeout', { timeout: NO_DEADLINE_MS }, async (_case, upstreamCase) => {
    const client = sourceClient(httpUrl, TIMEOUT_MS);
    const closedBefore = closed.length;
    const { error, elapsedMs, inTime } = await failureOf(client, { case: upstreamCase });
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toEqual(expect.objectContaining({ kind: 'timeout', retryable: true, message: expect.stringContaining(`hostile: no complete response within ${TIMEOUT_MS} ms`) as unknown }));
    // Not before the deadline (a timer never fires early), and not long after it.
    expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(inTime).toBe(true);
    // The abandoned response's connection is closed, not left in the pool, and the pool still serves.
    await expect.poll(() => closed.slice(closedBefore).find((close) => close.upstreamCase === upstreamCase)).toEqual({ upstreamCase, inTime: true });
    await expect(client.fetchPage({ case: 'fast' })).resolves.toMatchObject({ envelope: { status: 'success' } });
    await client.close();
  });

  it('abandons a connection whose TLS handshake never completes once timeoutMs has passed and before 1.8 × timeoutMs', { timeout: NO_DEADLINE_MS }, async () => {
    const client = sourceClient(`https://127.0.0.1:${tcpPort}`, TIMEOUT_MS);
    const { error, elapsedMs, inTime } = await failureOf(client, {});
    expect(error).toEqual(expect.objectContaining({ kind: 'timeout', retryable: true }));
    expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(inTime).toBe(true);
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
