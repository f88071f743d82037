import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../../src/config/schema.js';
import { SourceClient } from '../../../src/http/SourceClient.js';

let server: Server;
let baseUrl: string;
/** What each request brought: its headers and its path with query. */
const seen: { headers: IncomingHttpHeaders; url: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ headers: request.headers, url: request.url ?? '' });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"items":[]},"message":""}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const clients: SourceClient[] = [];
afterAll(() => Promise.all(clients.map((client) => client.close())));

/** A request through a source with `auth`, and what reached the server. */
async function requestWith(auth: Record<string, unknown>, nextUrl?: string) {
  const client = new SourceClient('api', sourceSchema.parse({ baseUrl, path: '/v1/items', auth }));
  clients.push(client);
  const page = await client.fetchPage({ q: 'x' }, nextUrl);
  return { page, received: seen.at(-1)! };
}

describe('auth styles, as they reach the server', () => {
  it('bearer: an Authorization: Bearer header', async () => {
    const { received } = await requestWith({ type: 'bearer', value: 'tok-1' });
    expect(received.headers.authorization).toBe('Bearer tok-1');
  });

  it('apiKey is short for a bearer key', async () => {
    const client = new SourceClient('api', sourceSchema.parse({ baseUrl, path: '/v1/items', apiKey: 'tok-2' }));
    clients.push(client);
    await client.fetchPage({});
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer tok-2');
  });

  it('header: the key in the named header, and no Authorization header', async () => {
    const { received } = await requestWith({ type: 'header', name: 'X-API-Key', value: 'tok-3' });
    expect(received.headers['x-api-key']).toBe('tok-3');
    expect(received.headers.authorization).toBeUndefined();
  });

  it('basic: base64 of user:password in an Authorization: Basic header', async () => {
    const { received } = await requestWith({ type: 'basic', username: 'ana', password: 'pä ss' });
    expect(received.headers.authorization).toBe(`Basic ${Buffer.from('ana:pä ss', 'utf8').toString('base64')}`);
  });

  it('none: neither a header nor a parameter', async () => {
    const { received } = await requestWith({ type: 'none' });
    expect(received.headers.authorization).toBeUndefined();
    expect(received.url).toBe('/v1/items?q=x');
  });

  it('query: the key in the named parameter, masked in the URL the page reports (and stores)', async () => {
    const { page, received } = await requestWith({ type: 'query', name: 'api_key', value: 'tok-4' });
    expect(received.url).toBe('/v1/items?q=x&api_key=tok-4');
    expect(page.url).toBe(`${baseUrl}/v1/items?q=x&api_key=***`);
  });

  it('query: a next-page URL gets the key, in place of any copy the upstream put in it, and is shown masked', async () => {
    const { page, received } = await requestWith({ type: 'query', name: 'api_key', value: 'tok-5' }, '/v1/items?page=2&api_key=echoed');
    expect(received.url).toBe('/v1/items?page=2&api_key=tok-5');
    expect(page.url).toBe(`${baseUrl}/v1/items?page=2&api_key=***`);
  });
});
