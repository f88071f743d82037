import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, MAX_RECORD_DEPTH } from '../../src/config/records/jsonDepth.js';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { syncQuery } from '../../src/sync/syncQuery.js';
import { capturingLogger, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

/** Page bodies by the test's name for them: the upstream serves `/api?q=<name>` with that body, one page. */
const bodies = new Map<string, string>();
let upstream: Server;
let upstreamUrl: string;
let database: TestDatabase;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const q = new URL(request.url ?? '/', 'http://upstream').searchParams.get('q') ?? '';
    response.setHeader('content-type', 'application/json');
    response.end(bodies.get(q) ?? '{"status":"error","data":null,"message":"unknown page"}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  database = await createTestDatabase();
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
  await database.drop();
});

/** One page holding these records (raw JSON text each, so a test can write what JSON.stringify would not). */
function servePage(recordTexts: string[]): string {
  const name = randomUUID();
  bodies.set(name, `{"status":"success","data":{"items":[${recordTexts.join(',')}]},"message":"OK"}`);
  return name;
}

/** `onInvalid` left out: the config sets none, so the documented default holds. */
async function sync(page: string, onInvalid?: 'fail' | 'skip') {
  const config = parseConfig(
    {
      sources: { hostile: { baseUrl: upstreamUrl, apiKey: 'hostile-test-key', path: '/api', retry: { attempts: 1 } } },
      jobs: [{ name: 'items', source: 'hostile', records: { path: 'items', kind: 'item', key: 'id', ...(onInvalid ? { onInvalid } : {}) }, paging: { limit: 100 }, queries: [{ q: page }] }],
    },
    'test',
    {},
  );
  const query = queryOf(config, 'items');
  const client = new SourceClient('hostile', query.source);
  const capture = capturingLogger();
  try {
    const summary = await syncQuery(
      query,
      runIdentityOf(query, `test/${randomUUID()}`),
      { store: openRunStore(database.db), client, gate: OPEN_GATE, logger: capture.logger, noticeFor: completionNotice },
    );
    return { summary, lines: capture.lines };
  } finally {
    await client.close();
  }
}

const storedKeys = async (runId: string) =>
  (await database.pool.query<{ key: string }>('select key from records where last_changed_run_id = $1 order by key', [runId])).rows.map((row) => row.key);

const deep = (depth: number) => `{"id":"deep","v":${'['.repeat(depth)}1${']'.repeat(depth)}}`;

describe('records Postgres cannot take', () => {
  it('fail their page by default, naming the record index, key and reason, and store none of it', async () => {
    const page = servePage(['{"id":"ok","v":1}', '{"id":"bad","v":"\\ud800"}']);
    const { summary } = await sync(page);
    expect(summary.status).toBe('failed');
    expect(summary.error?.message).toBe(
      'hostile: record 1 (key "bad") at data.items cannot be stored: it holds a lone UTF-16 surrogate (\\ud800), which Postgres jsonb cannot; set records.onInvalid: skip to keep such records in dead_letters and store the rest',
    );
    expect(await storedKeys(summary.runId)).toEqual([]);
  });

  it('with onInvalid: skip, are kept in dead_letters with their page, index, key, reason and text, counted in the run and its notice, while the rest of the page is stored', async () => {
    const page = servePage(['{"id":"ok","v":1}', '{"id":"bad","v":"\\udc00 alone"}', '{"id":"fine","v":2}']);
    const { summary, lines } = await sync(page, 'skip');
    expect(summary.status).toBe('succeeded');
    expect(await storedKeys(summary.runId)).toEqual(['fine', 'ok']);
    const { rows: dead } = await database.pool.query('select page_seq, record_index, key, reason, raw from dead_letters where run_id = $1', [summary.runId]);
    expect(dead).toEqual([{ page_seq: 1, record_index: 1, key: 'bad', reason: 'it holds a lone UTF-16 surrogate (\\udc00), which Postgres jsonb cannot', raw: '{"id":"bad","v":"\\udc00 alone"}' }]);
    const { rows: runs } = await database.pool.query<{ records_skipped: number }>('select records_skipped from sync_runs where id = $1', [summary.runId]);
    expect(runs[0]!.records_skipped).toBe(1);
    const { rows: notices } = await database.pool.query<{ body: string }>('select body from notices where run_id = $1', [summary.runId]);
    expect(JSON.parse(notices[0]!.body)).toMatchObject({ data: { records: { new: 2, skipped: 1 } } });
    expect(lines.filter((line) => line.includes('page records not stored as sent'))).toHaveLength(1);
  });

  it('include a record nested too deep, named with its depth rather than a bare stack overflow', async () => {
    const page = servePage(['{"id":"ok","v":1}', deep(MAX_RECORD_DEPTH)]);
    const { summary } = await sync(page, 'fail');
    expect(summary.status).toBe('failed');
    expect(summary.error?.message).toMatch(new RegExp(`^hostile: record 1 \\(key "deep"\\) at data\\.items cannot be stored: it is nested ${MAX_RECORD_DEPTH + 1} levels deep`));
  });

  it('with onInvalid: skip, keep a record nested too deep in dead_letters with its key and depth, and store the rest of its page', async () => {
    const page = servePage(['{"id":"beside-deep","v":1}', deep(MAX_RECORD_DEPTH)]);
    const { summary } = await sync(page, 'skip');
    expect(summary.status).toBe('succeeded');
    expect(await storedKeys(summary.runId)).toEqual(['beside-deep']);
    const { rows } = await database.pool.query<{ key: string; reason: string }>('select key, reason from dead_letters where run_id = $1', [summary.runId]);
    expect(rows).toMatchObject([{ key: 'deep', reason: expect.stringContaining(`nested ${MAX_RECORD_DEPTH + 1} levels deep`) as string }]);
  });

  it('include a record holding a number beyond Postgres numeric, kept alone in dead_letters rather than failing the page with a bare database error', async () => {
    const page = servePage(['{"id":"in-range","v":1e131071}', '{"id":"huge","v":1e200000}']);
    const { summary } = await sync(page, 'skip');
    expect(summary.status).toBe('succeeded');
    expect(await storedKeys(summary.runId)).toEqual(['in-range']);
    const { rows } = await database.pool.query<{ key: string; reason: string }>('select key, reason from dead_letters where run_id = $1', [summary.runId]);
    expect(rows).toEqual([{ key: 'huge', reason: 'it holds the number 1e200000, beyond what Postgres numeric (jsonb\'s numbers) can hold' }]);
  });

  it('include a record with no key, or one that is not an object, kept alone in dead_letters under skip', async () => {
    const page = servePage(['{"id":"keyed-beside-unkeyed","v":1}', '{"v":2}', '"not an object"']);
    const { summary } = await sync(page, 'skip');
    expect(summary.status).toBe('succeeded');
    expect(await storedKeys(summary.runId)).toEqual(['keyed-beside-unkeyed']);
    const { rows } = await database.pool.query('select record_index, key, reason, raw from dead_letters where run_id = $1 order by record_index', [summary.runId]);
    expect(rows).toEqual([
      { record_index: 1, key: '', reason: 'it has no key at "id"', raw: '{"v":2}' },
      { record_index: 2, key: '', reason: 'it is not an object', raw: '"not an object"' },
    ]);
  });

  it('include a record whose key holds a NUL, kept with U+FFFD in its dead letter', async () => {
    const page = servePage(['{"id":"a\\u0000b","v":1}']);
    const { summary } = await sync(page, 'skip');
    expect(summary.status).toBe('succeeded');
    const { rows } = await database.pool.query<{ key: string; reason: string }>('select key, reason from dead_letters where run_id = $1', [summary.runId]);
    expect(rows).toEqual([{ key: 'a\ufffdb', reason: 'its key holds a NUL character, which Postgres text cannot' }]);
  });
});

describe('pages nested too deep', () => {
  it('fail their run as too_deep before the database, naming the page and the depth', async () => {
    const page = servePage([deep(20_000)]);
    const { summary } = await sync(page, 'skip');
    expect(summary).toMatchObject({ status: 'failed', final: true, error: { kind: 'too_deep' } });
    expect(summary.error?.message).toBe(`hostile: the body of ${upstreamUrl}/api?q=${page}&limit=100&page=1 is nested 20004 levels deep, past the ${MAX_BODY_DEPTH} a page may nest (HTTP 200)`);
  });

  it('are stored when nested MAX_BODY_DEPTH deep, even when a number makes lossless-json parse them', async () => {
    // The body's object, data's object, the items' list and the record's object hold the rest.
    const levels = MAX_BODY_DEPTH - 4;
    const page = servePage([`{"id":"at-limit","v":${'['.repeat(levels)}1.50${']'.repeat(levels)}}`]);
    const { summary } = await sync(page, 'skip');
    expect(summary.status).toBe('succeeded');
    const { rows } = await database.pool.query<{ body: string }>('select b.body::text as body from envelopes e join page_bodies b using (content_hash) where e.run_id = $1', [summary.runId]);
    expect(rows).toEqual([{ body: bodies.get(page) }]);
  });
});

describe('pages kept as received', () => {
  it('stores a page with a NUL escape and a number beyond 2^53 byte for byte, its size and hash those of what was received', async () => {
    const name = randomUUID();
    const raw = `{"status":"success","data":{"items":[{"id":"n","text":"a\\u0000b","gas":9007199254740993,"price":0.10000000000000000000001}]},"message":"OK"}`;
    bodies.set(name, raw);
    const { summary } = await sync(name);
    expect(summary.status).toBe('succeeded');
    const { rows } = await database.pool.query<{ body: string; bytes: number; content_hash: string }>(
      'select b.body::text as body, e.bytes, e.content_hash from envelopes e join page_bodies b using (content_hash) where e.run_id = $1',
      [summary.runId],
    );
    expect(rows).toEqual([{ body: raw, bytes: Buffer.byteLength(raw), content_hash: createHash('sha256').update(raw).digest('hex') }]);
    const run = await database.pool.query<{ nul_chars_removed: number }>('select nul_chars_removed from sync_runs where id = $1', [summary.runId]);
    expect(run.rows[0]!.nul_chars_removed).toBe(1);
  });
});

describe('NULs outside records', () => {
  it('are kept out of the run row: an error envelope whose message holds one is recorded without it', async () => {
    const name = randomUUID();
    bodies.set(name, '{"status":"error","data":null,"message":"no such\\u0000 thing"}');
    const { summary } = await sync(name);
    expect(summary.status).toBe('failed');
    const { rows } = await database.pool.query<{ status: string; error: string }>('select status, error from sync_runs where id = $1', [summary.runId]);
    expect(rows[0]!.status).toBe('failed');
    expect(rows[0]!.error).toContain('no such thing');
  });
});

describe('records stored other than as sent', () => {
  it('collapse repeated keys of a page to the last, counted in the run and logged once for the page', async () => {
    const page = servePage(['{"id":"twice","v":1}', '{"id":"once","v":2}', '{"id":"twice","v":3}']);
    const { summary, lines } = await sync(page);
    expect(summary.status).toBe('succeeded');
    const { rows } = await database.pool.query<{ key: string; v: number }>(`select key, (payload->>'v')::int as v from records where last_changed_run_id = $1 order by key`, [summary.runId]);
    expect(rows).toEqual([{ key: 'once', v: 2 }, { key: 'twice', v: 3 }]);
    const { rows: runs } = await database.pool.query<{ records_collapsed: number }>('select records_collapsed from sync_runs where id = $1', [summary.runId]);
    expect(runs[0]!.records_collapsed).toBe(1);
    const warnings = lines.filter((line) => line.includes('page records not stored as sent'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ collapsed: 1, page: 1 });
  });

  it('lose their NULs, counted in the run, while the envelope keeps the page exactly as received', async () => {
    const body = servePage(['{"id":"nul","v":"a\\u0000b\\u0000"}']);
    const { summary } = await sync(body);
    expect(summary.status).toBe('succeeded');
    const { rows } = await database.pool.query<{ v: string; nul_chars_removed: number; body: string }>(
      `select r.payload->>'v' as v, s.nul_chars_removed, b.body::text as body from records r join sync_runs s on s.id = r.last_changed_run_id
        join envelopes e on e.run_id = s.id join page_bodies b on b.content_hash = e.content_hash where s.id = $1`,
      [summary.runId],
    );
    expect(rows).toEqual([{ v: 'ab', nul_chars_removed: 2, body: bodies.get(body) }]);
  });
});
