import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../src/config/schema.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { UpstreamError } from '../../src/http/UpstreamError.js';
import { hostileAnswerRows, MAX_RESPONSE_BYTES } from './hostileAnswerRows.js';

let server: Server;
let client: SourceClient;

beforeAll(async () => {
  // Answers `?row=<n>` as that row says.
  server = createServer((request, response) => {
    const row = hostileAnswerRows[Number(new URL(request.url ?? '/', 'http://x').searchParams.get('row'))]!;
    if (row.drop) return void request.socket.destroy();
    const headers = { 'content-type': 'application/json', ...row.headers };
    for (const [name, value] of Object.entries(headers)) if (value !== '') response.setHeader(name, value);
    response.statusCode = row.status ?? 200;
    if (!row.chunked) return void response.end(row.body);
    response.write(row.body!.slice(0, 10));
    response.end(row.body!.slice(10));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new SourceClient('music', sourceSchema.parse({ baseUrl, apiKey: 'k-hostile-0123', path: '/api', maxResponseBytes: MAX_RESPONSE_BYTES }));
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** What comes of row `index`'s answer: `read` and the page's data, or the error's kind and message. */
async function outcomeOf(index: number): Promise<string> {
  const nextUrl = hostileAnswerRows[index]!.nextUrl;
  try {
    const page = await client.fetchPage({ row: String(index) }, nextUrl);
    return `read: ${JSON.stringify(page.envelope.data)}`;
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return `${error.kind}: ${error.message}`;
  }
}

describe('hostile upstream answers', () => {
  it.each(hostileAnswerRows.map((row, index) => [row.what, index] as const))('%s', async (_what, index) => {
    expect(await outcomeOf(index)).toMatch(hostileAnswerRows[index]!.outcome);
  });
});
