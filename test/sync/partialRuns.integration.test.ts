import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { completionNotice, type CompletionNotice } from '../../src/notices/completionNotice.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { syncQuery } from '../../src/sync/syncQuery.js';
import { startLocalApi, type LocalApi } from '../support/localApi.js';
import { finishingOnlyFailures } from '../support/faultyStores.js';
import { capturingLogger, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

/** Listens the API has, with `uts` 1001, 1002, …; a test adds more to have new ones to read. */
let listens = 30;
/** Requests the API has answered. */
let requests = 0;
let api: LocalApi;
let database: TestDatabase;

/**
 * An API paged by `page` and `per_page` that states its total: `/asc` gives listens oldest first,
 * `/desc` newest first (as Last.fm's recent tracks), both from `from` on; `/overstated` states five
 * more than it has; `/oneblock` gives 50 records of one block, from `startblock` on, no total.
 */
beforeAll(async () => {
  api = await startLocalApi((request, response) => {
    requests += 1;
    const url = new URL(request.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = Number(url.searchParams.get('per_page') ?? '10');
    const slice = <T>(all: T[]) => all.slice((page - 1) * perPage, page * perPage);
    const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/oneblock') {
      const startblock = Number(url.searchParams.get('startblock') ?? '0');
      return json({ items: slice(Array.from({ length: 50 }, (_, i) => ({ id: `t${i + 1}`, blockNumber: 7 })).filter((tx) => tx.blockNumber >= startblock)) });
    }
    const from = Number(url.searchParams.get('from') ?? '0');
    const all = Array.from({ length: listens }, (_, i) => ({ id: `l${1001 + i}`, uts: 1001 + i })).filter((listen) => listen.uts >= from);
    if (url.pathname === '/desc') all.reverse();
    return json({ total: all.length + (url.pathname === '/overstated' ? 5 : 0), items: slice(all) });
  });
  database = await createTestDatabase();
});
afterAll(async () => {
  await api.close();
  await database.drop();
});
beforeEach(() => {
  listens = 30;
});

type Job = ConfigInput['jobs'][number];

/** One run of job `job` (its cursor its own) against `path`, 10 records a page, with the paging and query given; `runKey` resumes a run. */
async function syncFrom(path: string, job: string, paging: Record<string, unknown>, query: Job['queries'][number] = {}, run: { store?: RunStore; runKey?: string } = {}) {
  const config = parseConfig(
    {
      sources: { api: { baseUrl: api.baseUrl, path, auth: { type: 'none' }, response: { preset: 'plain' }, retry: { attempts: 1 }, paging: { limit: 10, limitParam: 'per_page', ...paging } } },
      jobs: [{ name: job, source: 'api', records: { path: 'items', kind: `item_${job.replaceAll('-', '_')}` }, queries: [query] }],
    },
    'test config',
    {},
  );
  const resolved = queryOf(config, job);
  const client = new SourceClient('api', resolved.source);
  try {
    const identity = runIdentityOf(resolved, run.runKey ?? `test/${randomUUID()}`);
    return await syncQuery(resolved, identity, { store: run.store ?? openRunStore(database.db), client, gate: OPEN_GATE, logger: capturingLogger().logger, noticeFor: completionNotice });
  } finally {
    await client.close();
  }
}

async function runRow(runId: string) {
  const { rows } = await database.pool.query<{ status: string; stop_reason: string; error_kind: string | null; error: string | null; pages: number }>(
    'select status, stop_reason, error_kind, error, pages from sync_runs where id = $1',
    [runId],
  );
  return rows[0]!;
}

async function noticeOf(runId: string): Promise<CompletionNotice> {
  const { rows } = await database.pool.query<{ type: string; body: string }>('select type, body from notices where run_id = $1', [runId]);
  const notice = JSON.parse(rows[0]!.body) as CompletionNotice;
  expect(notice.type).toBe(rows[0]!.type);
  return notice;
}

async function cursorOf(job: string): Promise<string | undefined> {
  const { rows } = await database.pool.query<{ value: string }>('select value from incremental_cursors where job = $1', [job]);
  return rows[0]?.value;
}

const byUts = { param: 'from', field: 'uts', overlap: 0 };

describe('partial runs', () => {
  it('ends partial at maxPages while the stated total shows more: status, stop reason, why, and a sync.partial notice', async () => {
    const summary = await syncFrom('/asc', 'max-pages', { maxPages: 2 });
    expect(summary).toMatchObject({ status: 'partial', stopReason: 'max_pages', pages: 2, shortfall: { kind: 'max_pages' } });
    const row = await runRow(summary.runId);
    expect(row).toMatchObject({ status: 'partial', stop_reason: 'max_pages', error_kind: 'max_pages' });
    expect(row.error).toBe('stopped at paging.maxPages (2) after reading 20 records of the 30 the upstream states');
    const notice = await noticeOf(summary.runId);
    expect(notice).toMatchObject({ type: 'sync.partial', data: { pages: 2, records: { new: 20 }, error: { kind: 'max_pages', message: row.error } } });
  });

  it('ends a run resumed after its last page (its finish never written) as its paging ended, fetching nothing again', async () => {
    const runKey = `test/${randomUUID()}`;
    await expect(syncFrom('/asc', 'lost-finish', { maxPages: 2 }, {}, { store: finishingOnlyFailures(openRunStore(database.db), 'the worker died'), runKey })).rejects.toThrow('the worker died');
    const requestsBefore = requests;
    const resumed = await syncFrom('/asc', 'lost-finish', { maxPages: 2 }, {}, { runKey });
    expect(resumed).toMatchObject({ status: 'partial', stopReason: 'max_pages', pages: 2, counts: { new: 20, unchanged: 0 } });
    expect(requests).toBe(requestsBefore);
    expect(await runRow(resumed.runId)).toMatchObject({ status: 'partial', error_kind: 'max_pages', pages: 2 });
  });

  it('counts a page that repeats the one before (the page parameter ignored) neither as read nor as stored: short of a total under two pages', async () => {
    listens = 15;
    const summary = await syncFrom('/asc', 'repeats', { pageParam: 'pg' });
    expect(summary).toMatchObject({ status: 'partial', stopReason: 'repeated_page', pages: 1, counts: { new: 10, unchanged: 0 }, shortfall: { kind: 'short_of_total' } });
  });

  it('succeeds at maxPages when the stated total shows every record was read', async () => {
    const summary = await syncFrom('/asc', 'max-pages-all-read', { maxPages: 3 });
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'max_pages', pages: 3, counts: { new: 30 } });
    expect((await noticeOf(summary.runId)).type).toBe('sync.succeeded');
  });

  it('succeeds when it reads every record the upstream states', async () => {
    const summary = await syncFrom('/asc', 'all-read', {});
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'empty_page', counts: { new: 30 } });
    expect(await runRow(summary.runId)).toMatchObject({ status: 'succeeded', error_kind: null, error: null });
  });

  it('ends partial when the last page states a total larger than what was read', async () => {
    const summary = await syncFrom('/overstated', 'overstated', {});
    expect(summary).toMatchObject({ status: 'partial', stopReason: 'empty_page', counts: { new: 30 }, shortfall: { kind: 'short_of_total' } });
    expect(await runRow(summary.runId)).toMatchObject({
      status: 'partial',
      error_kind: 'short_of_total',
      error: "read 30 records, fewer than the 35 the upstream's last page states (paging stopped: empty_page)",
    });
  });

  it('ends partial at a window one value fills, keeping the pages it stored and naming the value', async () => {
    const summary = await syncFrom('/oneblock', 'stuck-window', { window: { maxResults: 20, param: 'startblock', field: 'blockNumber' } });
    expect(summary).toMatchObject({ status: 'partial', stopReason: 'window_stuck', shortfall: { kind: 'window_stuck' } });
    const row = await runRow(summary.runId);
    expect(row).toMatchObject({ status: 'partial', stop_reason: 'window_stuck', error_kind: 'window_stuck', pages: summary.pages });
    expect(row.error).toContain('one value of the window field (7) fills the whole result window');
    const stored = await database.pool.query<{ pages: string; records: string }>(
      `select (select count(*) from envelopes where run_id = $1) as pages, (select count(*) from records where kind = 'item_stuck_window') as records`,
      [summary.runId],
    );
    expect(stored.rows[0]).toEqual({ pages: String(summary.pages), records: '20' });
    expect((await noticeOf(summary.runId)).type).toBe('sync.partial');
  });

  it('keeps the cursor where it was after a partial run that read newest first, so the next run reads the missing part', async () => {
    const job = 'newest-first';
    expect((await syncFrom('/desc', job, {}, { incremental: byUts })).status).toBe('succeeded');
    expect(await cursorOf(job)).toBe('1030');
    listens = 60;
    const partial = await syncFrom('/desc', job, { maxPages: 1 }, { incremental: byUts });
    expect(partial).toMatchObject({ status: 'partial', counts: { new: 10 } });
    expect(await cursorOf(job)).toBe('1030');
    const next = await syncFrom('/desc', job, {}, { incremental: byUts });
    expect(next).toMatchObject({ status: 'succeeded', counts: { new: 20, unchanged: 11 } });
    expect(await cursorOf(job)).toBe('1060');
  });

  it('moves the cursor to the highest stored value after a partial run that read oldest first', async () => {
    const job = 'oldest-first';
    const partial = await syncFrom('/asc', job, { maxPages: 2 }, { incremental: byUts });
    expect(partial).toMatchObject({ status: 'partial', counts: { new: 20 } });
    expect(await cursorOf(job)).toBe('1020');
    const next = await syncFrom('/asc', job, {}, { incremental: byUts });
    expect(next).toMatchObject({ status: 'succeeded', counts: { new: 10, unchanged: 1 } });
    expect(await cursorOf(job)).toBe('1030');
  });
});
