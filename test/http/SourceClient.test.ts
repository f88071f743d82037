import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../src/config/schema.js';
import { SourceClient } from '../../src/http/SourceClient.js';

let server: Server;
let baseUrl: string;
const seen: { authorization?: string; url?: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ authorization: request.headers.authorization, url: request.url });
    const url = new URL(request.url ?? '/', 'http://x');
    const reply = (status: number, body: string, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    switch (url.searchParams.get('case')) {
      case 'nul':
        return reply(200, '{"status":"success","data":{"items":[{"id":"a","name":"x\\u0000y"}]},"message":""}');
      case 'redirect':
        return reply(302, '', { location: 'http://127.0.0.2:1/steal' });
      case 'trickle': {
        // A byte every 40 ms: each wait is short, the whole body is not.
        response.writeHead(200, { 'content-type': 'application/json' });
        const body = '{"status":"success","data":{},"message":""}';
        let sent = 0;
        const timer = setInterval(() => {
          if (sent < body.length) return void response.write(body[sent++]);
          clearInterval(timer);
          response.end();
        }, 40);
        response.on('close', () => clearInterval(timer));
        return;
      }
      case 'big':
        return reply(200, JSON.stringify({ status: 'success', data: { pad: 'x'.repeat(5000) }, message: '' }));
      default:
        return reply(200, '{"status":"success","data":{"items":[]},"message":"ok"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = (overrides: Record<string, unknown> = {}) => new SourceClient('music', sourceSchema.parse({ baseUrl, apiKey: 'secret-key', path: '/2.0/', ...overrides }));

describe('SourceClient', () => {
  it('sends the key as a Bearer header, not in the URL', async () => {
    const page = await client().fetchPage({ q: 'a' });
    expect(seen.at(-1)?.authorization).toBe('Bearer secret-key');
    expect(page.url).not.toContain('secret-key');
  });

  it('drops U+0000, which Postgres jsonb cannot store, from the body it keeps', async () => {
    const page = await client().fetchPage({ case: 'nul' });
    expect(page.raw).not.toContain('\\u0000');
    expect(page.envelope.data).toEqual({ items: [{ id: 'a', name: 'xy' }] });
  });

  it('does not follow a redirect, so the key never reaches another origin', async () => {
    await expect(client().fetchPage({ case: 'redirect' })).rejects.toMatchObject({ kind: 'redirect', status: 302 });
  });

  it('gives up on a body still arriving after timeoutMs, however steadily it trickles', async () => {
    await expect(client({ timeoutMs: 300 }).fetchPage({ case: 'trickle' })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('puts the parameters after the path, and after a query the path has of its own', async () => {
    expect((await client().fetchPage({ method: 'artist.search', q: 'a b&c' })).url).toBe(`${baseUrl}/2.0/?method=artist.search&q=a+b%26c`);
    expect(seen.at(-1)?.url).toBe('/2.0/?method=artist.search&q=a+b%26c');
    expect((await client({ path: '/api?format=json' }).fetchPage({ q: 'x' })).url).toBe(`${baseUrl}/api?format=json&q=x`);
    expect(seen.at(-1)?.url).toBe('/api?format=json&q=x');
  });

  it('refuses a body larger than maxResponseBytes', async () => {
    await expect(client({ maxResponseBytes: 1000 }).fetchPage({ case: 'big' })).rejects.toMatchObject({ kind: 'too_large' });
  });
});
