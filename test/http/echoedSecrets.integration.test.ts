import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../src/config/schema.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { UpstreamError } from '../../src/http/UpstreamError.js';
import { leaksIn } from '../support/secretEncodings.js';
import { ECHOED_KEY, echoedSecretRows } from './echoedSecretRows.js';

let server: Server;
let client: SourceClient;

beforeAll(async () => {
  // Answers `?row=<n>` with that row's echo in its place.
  server = createServer((request, response) => {
    const row = echoedSecretRows[Number(new URL(request.url ?? '/', 'http://x').searchParams.get('row'))]!;
    const { status, body, location } = row.place.answer(row.echo);
    response.writeHead(status, { 'content-type': 'application/json', ...(location ? { location } : {}) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new SourceClient('music', sourceSchema.parse({ baseUrl, apiKey: ECHOED_KEY, path: '/api' }));
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** What comes out of the client for row `index`: the error's text, or the page's raw body and parsed data. */
async function whatComesOut(index: number): Promise<string> {
  try {
    const page = await client.fetchPage({ row: String(index) });
    return `${page.raw.toString()}\n${JSON.stringify(page.envelope)}\n${page.link ?? ''}`;
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return [error.message, error.excerpt, error.upstreamMessage, error.stack].join('\n');
  }
}

describe('an upstream that echoes the key back', () => {
  it.each(echoedSecretRows.map((row, index) => [row.what, index] as const))('%s: the key comes out in no form, *** where it was', async (_what, index) => {
    const out = await whatComesOut(index);
    expect(leaksIn(out, { key: ECHOED_KEY })).toEqual([]);
    expect(out).toContain('***');
  });
});
