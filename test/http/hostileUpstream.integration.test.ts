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
/** Each test's own timeout: a request with no deadline at all would still be under way then. */
const TEST_TIMEOUT_MS = 10 * TIMEOUT_MS;

/** The case of each response closed (the client dropped its connection, or it was answered), as it happens. */
const closedCases: (string | null)[] = [];
const http = createServer((request, response) => {
  const upstreamCase = new URL(request.url ?? '/', 'http://x').searchParams.get('case');
  response.on('close', () => closedCases.push(upstreamCase));
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

/** A timer that only notes that it fired. */
function firingNoted(delayMs: number): { fired: () => boolean; clear: () => void } {
  let fired = false;
  const timer = setTimeout(() => (fired = true), delayMs);
  return { fired: () => fired, clear: () => clearTimeout(timer) };
}

/**
 * The error a request failed with, and whether timers of 0.9 × and 1.8 × timeoutMs, set just before it,
 * had fired by then. Timers fire in the order they are due, however late, and the abort reaches here
 * through microtasks before any later timer runs: a deadline of timeoutMs, due between the two, ends
 * the request after the first has fired and before the second has, on a machine however busy.
 */
async function failureOf(client: SourceClient, params: Record<string, string>): Promise<{ error: unknown; afterEarly: boolean; beforeLate: boolean }> {
  const early = firingNoted(0.9 * TIMEOUT_MS);
  const late = firingNoted(1.8 * TIMEOUT_MS);
  const error = await client.fetchPage(params).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  const when = { afterEarly: early.fired(), beforeLate: !late.fired() };
  early.clear();
  late.clear();
  return { error, ...when };
}

const activeTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('one deadline of timeoutMs for the whole request', () => {
  it.each([
    ['a body trickling one byte every 0.9 × timeoutMs', 'trickle'],
    ['headers, then silence', 'headers-then-stall'],
    ['no answer at all', 'silent'],
  ])('abandons %s at timeoutMs (after 0.9 ×, before 1.8 ×), as a retryable timeout', { timeout: TEST_TIMEOUT_MS }, async (_case, upstreamCase) => {
    const client = sourceClient(httpUrl, TIMEOUT_MS);
    const closedBefore = closedCases.length;
    const { error, afterEarly, beforeLate } = await failureOf(client, { case: upstreamCase });
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toEqual(expect.objectContaining({ kind: 'timeout', retryable: true, message: expect.stringContaining(`hostile: no complete response within ${TIMEOUT_MS} ms`) as unknown }));
    expect({ afterEarly, beforeLate }).toEqual({ afterEarly: true, beforeLate: true });
    // The abandoned response's connection is closed (a stalled one left in the pool never would be), and the pool still serves.
    await expect.poll(() => closedCases.slice(closedBefore).includes(upstreamCase), { timeout: 5 * TIMEOUT_MS }).toBe(true);
    await expect(client.fetchPage({ case: 'fast' })).resolves.toMatchObject({ envelope: { status: 'success' } });
    await client.close();
  });

  // Ended by the deadline or by undici's connect timeout (timeoutMs too, on a clock that ticks every ~0.5 s), whichever comes first.
  it('abandons a connection whose TLS handshake never completes at about timeoutMs (after 0.9 ×, before 1.8 ×), as a retryable timeout', { timeout: TEST_TIMEOUT_MS }, async () => {
    const client = sourceClient(`https://127.0.0.1:${tcpPort}`, TIMEOUT_MS);
    const { error, afterEarly, beforeLate } = await failureOf(client, {});
    expect(error).toEqual(expect.objectContaining({ kind: 'timeout', retryable: true }));
    expect({ afterEarly, beforeLate }).toEqual({ afterEarly: true, beforeLate: true });
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
