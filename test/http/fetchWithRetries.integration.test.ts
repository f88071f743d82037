import { afterEach, describe, expect, it } from 'vitest';
import { retryPolicySchema, sourceSchema } from '../../src/config/schema.js';
import { fetchWithRetries } from '../../src/http/fetchWithRetries.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { startLocalApi, type LocalApi } from '../support/localApi.js';

const PAGE = '{"status":"success","data":{"items":[]},"message":""}';
const POLICY = retryPolicySchema.parse({ attempts: 3, baseDelayMs: 1, maxDelayMs: 5 });

let api: LocalApi | undefined;
let client: SourceClient | undefined;
afterEach(async () => {
  await client?.close();
  await api?.close();
});

/** Fetches one page from an upstream that answers `first`, then a whole page; with how many requests it took. */
async function fetchAfter(first: string): Promise<{ outcome: unknown; requests: number }> {
  let requests = 0;
  api = await startLocalApi((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(requests++ === 0 ? first : PAGE);
  });
  client = new SourceClient('music', sourceSchema.parse({ baseUrl: api.baseUrl, apiKey: 'k-retries-0123', path: '/api' }));
  const outcome = await fetchWithRetries(client, { params: {} }, POLICY, OPEN_GATE).then(
    (page) => page.envelope.data,
    (error: unknown) => error,
  );
  return { outcome, requests };
}

describe('fetchWithRetries, of bodies the shape cannot read', () => {
  it('asks again after a body cut short, and reads the whole one', async () => {
    expect(await fetchAfter(PAGE.slice(0, 30))).toEqual({ outcome: { items: [] }, requests: 2 });
  });

  it('fails at once on an HTML page, saying what the body is', async () => {
    const { outcome, requests } = await fetchAfter('<!doctype html><html><body>Maintenance</body></html>');
    expect(requests).toBe(1);
    expect(outcome).toMatchObject({ kind: 'unreadable', message: 'music: response is not JSON: the body is an HTML page (HTTP 200)' });
  });

  it('fails at once on JSON of another shape, saying what it is and what would read it', async () => {
    const { outcome, requests } = await fetchAfter('{"jsonrpc":"2.0","id":1,"result":"0x1b4"}');
    expect(requests).toBe(1);
    expect(outcome).toMatchObject({
      kind: 'unreadable',
      message: 'music: response is not the envelope shape: expected a status at "status"; the body is a JSON-RPC result (response.preset: etherscan reads {status, message, result} and JSON-RPC) (HTTP 200)',
    });
  });
});
