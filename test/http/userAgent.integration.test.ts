import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../src/config/schema.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { startLocalApi, type LocalApi } from '../support/localApi.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

let api: LocalApi;
/** The User-Agent headers of each request the API received: one, unless it was sent twice or not at all. */
const userAgents: (string[] | undefined)[] = [];

beforeAll(async () => {
  api = await startLocalApi((request, response) => {
    userAgents.push(request.headersDistinct['user-agent']);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"items":[]},"message":""}');
  });
});
afterAll(() => api.close());

/** The User-Agent headers one request of a client for a source configured with `overrides` arrives with. */
async function userAgentSent(overrides: Record<string, unknown>): Promise<unknown> {
  const client = new SourceClient('music', sourceSchema.parse({ baseUrl: api.baseUrl, auth: { type: 'none' }, path: '/api', ...overrides }));
  try {
    await client.fetchPage({ q: 'a' });
  } finally {
    await client.close();
  }
  return userAgents.at(-1);
}

describe('the User-Agent of upstream requests', () => {
  it("is feedsync/<package.json's version> by default", async () => {
    expect(await userAgentSent({})).toEqual([`feedsync/${version}`]);
  });

  it("appends a source's userAgent contact as (+contact)", async () => {
    expect(await userAgentSent({ userAgent: 'https://github.com/your-org/your-repo' })).toEqual([`feedsync/${version} (+https://github.com/your-org/your-repo)`]);
  });
});
