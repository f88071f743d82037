import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { syncQuery } from '../../src/sync/syncQuery.js';
import { startLocalApi, type LocalApi } from '../support/localApi.js';
import { capturingLogger, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

const KEY = 'next-url-key-7f3a';
/** Items 1..ITEMS, paged by `page` and `per_page`: the upstream decides the page size (at most 3). */
const ITEMS = 8;
let api: LocalApi;
/** The path and query of every request the API received. */
const received: string[] = [];
let baseUrl: string;
let database: TestDatabase;

/**
 * A REST API of the kind feedsync meets outside the contract: `/links` gives the next page in a
 * `Link` header (and wants the key in `X-API-Key`), `/feed` gives it as `next` in the body (key in
 * `api_key`), `/escape` links the next page to another origin.
 */
beforeAll(async () => {
  api = await startLocalApi((request, response) => {
    received.push(request.url ?? '');
    const url = new URL(request.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = Math.min(3, Number(url.searchParams.get('per_page') ?? '3'));
    const items = Array.from({ length: ITEMS }, (_, index) => ({ id: index + 1, name: `item ${index + 1}` })).slice((page - 1) * perPage, page * perPage);
    const more = page * perPage < ITEMS;
    const next = `/${url.pathname.slice(1)}?page=${page + 1}&per_page=${perPage}`;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (url.pathname === '/links') {
      if (request.headers['x-api-key'] !== KEY) return json(401, { error: 'bad key' });
      const links = [`<${baseUrl}/links?page=1&per_page=${perPage}>; rel="first"`, ...(more ? [`<${baseUrl}${next}>; rel="next"`] : [])];
      return json(200, items, { link: links.join(', ') });
    }
    if (url.pathname === '/echo') {
      // Links the next page with the request's own query, key included, as some APIs do.
      if (url.searchParams.get('api_key') !== KEY) return json(401, { error: 'bad key' });
      const echoed = new URLSearchParams(url.searchParams);
      echoed.set('page', String(page + 1));
      return json(200, items, more ? { link: `<${baseUrl}/echo?${echoed.toString()}>; rel="next"` } : {});
    }
    if (url.pathname === '/feed') {
      if (url.searchParams.get('api_key') !== KEY) return json(401, { error: 'bad key' });
      return json(200, { items, next: more ? next : null });
    }
    return json(200, items, { link: `<http://127.0.0.2:1/steal?page=2>; rel="next"` });
  });
  baseUrl = api.baseUrl;
  database = await createTestDatabase();
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

type Source = ConfigInput['sources'][string];
type Job = ConfigInput['jobs'][number];

/** One job `items` on a source at `path`, read with `response.preset: plain` and the given auth and paging. */
async function syncItems(path: string, auth: Source['auth'], paging: Record<string, unknown>, recordsPath: string, more: { source?: Partial<Source>; job?: Partial<Job> } = {}) {
  const config = parseConfig(
    {
      sources: { api: { baseUrl, path, auth, response: { preset: 'plain' }, retry: { attempts: 1 }, paging: { limit: 3, limitParam: 'per_page', ...paging }, ...more.source } },
      jobs: [{ name: 'items', source: 'api', records: { path: recordsPath, kind: `item_${randomUUID().slice(0, 8)}` }, queries: [{}], ...more.job }],
    },
    'test config',
    {},
  );
  const query = queryOf(config, 'items');
  const client = new SourceClient('api', query.source);
  const { logger, lines } = capturingLogger();
  try {
    const identity = runIdentityOf(query, `test/${randomUUID()}`);
    const summary = await syncQuery(query, identity, { store: openRunStore(database.db), client, gate: OPEN_GATE, logger });
    const { rows } = await database.pool.query<{ url: string }>('select request_url as url from envelopes where run_id = $1 order by page_seq', [summary.runId]);
    return { summary, urls: rows.map((row) => row.url), logged: lines.join('') };
  } finally {
    await client.close();
  }
}

describe('paging by next-page URLs', () => {
  it('link_header: follows rel="next" until a page has none, with the key in a header', async () => {
    const { summary, urls } = await syncItems('/links', { type: 'header', name: 'X-API-Key', value: KEY }, { style: 'link_header' }, '.');
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'no_next_page', pages: 3, counts: { new: ITEMS } });
    expect(urls).toEqual([`${baseUrl}/links?per_page=3`, `${baseUrl}/links?page=2&per_page=3`, `${baseUrl}/links?page=3&per_page=3`]);
  });

  it('next_url: follows the URL at nextUrlPath until it is null, with the key in the query string masked in stored URLs and logs', async () => {
    const { summary, urls, logged } = await syncItems('/feed', { type: 'query', name: 'api_key', value: KEY }, { style: 'next_url', nextUrlPath: 'next' }, 'items');
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'no_next_page', pages: 3, counts: { new: ITEMS } });
    expect(urls).toEqual([`${baseUrl}/feed?per_page=3&api_key=***`, `${baseUrl}/feed?page=2&per_page=3&api_key=***`, `${baseUrl}/feed?page=3&per_page=3&api_key=***`]);
    expect(logged).not.toContain(KEY);
  });

  it('keeps a key the upstream echoes in its Link header out of the checkpoint, and still sends it', async () => {
    const { summary, urls, logged } = await syncItems('/echo', { type: 'query', name: 'api_key', value: KEY }, { style: 'link_header' }, '.');
    expect(summary).toMatchObject({ status: 'succeeded', pages: 3, counts: { new: ITEMS } });
    const { rows } = await database.pool.query<{ checkpoint: string }>('select checkpoint::text as checkpoint from sync_runs where id = $1', [summary.runId]);
    for (const text of [rows[0]!.checkpoint, urls.join(' '), logged]) expect(text).not.toContain(KEY);
  });

  it('does not end at a page shorter than limit when the upstream picks the page size', async () => {
    const { summary } = await syncItems('/links', { type: 'header', name: 'X-API-Key', value: KEY }, { style: 'link_header', limit: 5 }, '.');
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'no_next_page', pages: 3, counts: { new: ITEMS } });
  });

  it('refuses a next page on another origin, failing the run with what it refused, and stores the pages before it', async () => {
    const { summary } = await syncItems('/escape', { type: 'query', name: 'api_key', value: KEY }, { style: 'link_header' }, '.');
    expect(summary).toMatchObject({ status: 'failed', pages: 1 });
    expect(summary.error?.message).toContain("it leads to http://127.0.0.2:1, not to baseUrl's origin");
  });
});

describe('request parameters', () => {
  const header = { type: 'header' as const, name: 'X-API-Key', value: KEY };

  it('sends the source\'s params with every request, a job\'s over them and a query\'s over both', async () => {
    const before = received.length;
    await syncItems('/links', header, { style: 'link_header' }, '.', {
      source: { params: { format: 'json', sort: 'asc', lang: 'en' } },
      job: { params: { sort: 'desc', lang: 'de' }, queries: [{ params: { lang: 'fr' } }] },
    });
    expect(received[before]).toBe('/links?format=json&sort=desc&lang=fr&per_page=3');
  });

  it('sends q under the name qParam gives it, the query\'s over the job\'s', async () => {
    const before = received.length;
    await syncItems('/links', header, { style: 'link_header' }, '.', { job: { qParam: 'user', queries: [{ q: 'rj' }] } });
    expect(received[before]).toBe('/links?user=rj&per_page=3');
    const again = received.length;
    await syncItems('/links', header, { style: 'link_header' }, '.', { job: { qParam: 'user', queries: [{ q: '0xab', qParam: 'address' }] } });
    expect(received[again]).toBe('/links?address=0xab&per_page=3');
  });
});
