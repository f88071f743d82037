import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WriteMode } from '../../src/config/analytics/kindsSchema.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { replayJob } from '../../src/sync/replayJob.js';
import { ReplayReader } from '../../src/storage/pages/ReplayReader.js';
import type { RunSummary } from '../../src/sync/syncQuery.js';
import { givenListApi, listQuery, syncList } from '../support/listSync.js';
import { capturingLogger } from '../support/syncFixture.js';

interface Item {
  id: string;
  v: number;
}

const given = givenListApi<Item>();

/** A job reading the list at `path` two items a page, in `mode`, storing `kind`. */
function syncer(mode: WriteMode, kind: string, path: string, maxPages = 100, storeOf: (store: RunStore) => RunStore = (store) => store) {
  const { config, query } = listQuery(given.api, path, `chart-${kind}`, kind, { job: { mode }, paging: { maxPages } });
  const sync = (items: Item[]): Promise<RunSummary> => syncList(given, query, path, items, { store: storeOf(openRunStore(given.database.db)), noticeFor: completionNotice, databaseOutageMs: 5_000 });
  const replay = () => replayJob(config, { job: query.job }, { store: openRunStore(given.database.db), replayReader: new ReplayReader(given.database.pool), logger: capturingLogger().logger, onError: 'stop' });
  return Object.assign(sync, { replay });
}

const live = async (kind: string) =>
  (await given.database.pool.query<{ key: string; v: number }>(`select key, (payload->>'v')::int as v from records where kind = $1 and deleted_at is null order by key`, [kind])).rows.map(({ key, v }) => `${key}=${v}`);

const [A, B, B2, C] = [{ id: 'a', v: 1 }, { id: 'b', v: 1 }, { id: 'b', v: 2 }, { id: 'c', v: 1 }];

describe('write modes over three syncs (a record removed and another changed, then the removed one back)', () => {
  it('full_refresh: the removed record is deleted after the second run and back after the third', async () => {
    const kind = `fr${randomUUID().slice(0, 8)}`;
    const sync = syncer('full_refresh', kind, `/${kind}`);
    await sync([A, B, C]);
    expect(await live(kind)).toEqual(['a=1', 'b=1', 'c=1']);
    const second = await sync([A, B2]);
    expect(second).toMatchObject({ status: 'succeeded' });
    expect(await live(kind)).toEqual(['a=1', 'b=2']);
    const notice = await given.database.pool.query<{ body: string }>('select body from notices where run_id = $1', [second.runId]);
    expect((JSON.parse(notice.rows[0]!.body) as { data: { records: unknown } }).data.records).toMatchObject({ new: 0, updated: 1, unchanged: 1, deleted: 1 });
    await sync([A, B2, C]);
    expect(await live(kind)).toEqual(['a=1', 'b=2', 'c=1']);
  });

  it('full_refresh: a sweep that committed as its connection dropped is counted once, in the run and in its notice', async () => {
    const kind = `fd${randomUUID().slice(0, 8)}`;
    await syncer('full_refresh', kind, `/${kind}`)([A, B, C]);
    const second = await syncer('full_refresh', kind, `/${kind}`, 100, droppingAfterSweep)([A, B2]);
    expect(second).toMatchObject({ status: 'succeeded' });
    expect(await live(kind)).toEqual(['a=1', 'b=2']);
    const { rows } = await given.database.pool.query<{ body: string; records_deleted: number }>('select n.body, r.records_deleted from notices n join sync_runs r on r.id = n.run_id where r.id = $1', [second.runId]);
    expect(rows[0]!.records_deleted).toBe(1);
    expect((JSON.parse(rows[0]!.body) as { data: { records: unknown } }).data.records).toMatchObject({ deleted: 1 });
  });

  it('merge: the removed record stays', async () => {
    const kind = `mg${randomUUID().slice(0, 8)}`;
    const sync = syncer('merge', kind, `/${kind}`);
    await sync([A, B, C]);
    await sync([A, B2]);
    expect(await live(kind)).toEqual(['a=1', 'b=2', 'c=1']);
    await sync([A, B2, C]);
    expect(await live(kind)).toEqual(['a=1', 'b=2', 'c=1']);
  });

  it('append: every version of the changed record is kept, the latest one open', async () => {
    const kind = `ap${randomUUID().slice(0, 8)}`;
    const sync = syncer('append', kind, `/${kind}`);
    await sync([A, B, C]);
    await sync([A, B2]);
    await sync([A, B2, C]);
    const { rows } = await given.database.pool.query<{ key: string; v: number; open: boolean }>(`select key, (payload->>'v')::int as v, valid_to is null as open from record_versions where kind = $1 order by key, change_seq`, [kind]);
    expect(rows).toEqual([
      { key: 'a', v: 1, open: true },
      { key: 'b', v: 1, open: false },
      { key: 'b', v: 2, open: true },
      { key: 'c', v: 1, open: true },
    ]);
    expect(await live(kind)).toEqual(['a=1', 'b=2', 'c=1']);
  });

  it('full_refresh: a run that did not get everything (stopped at maxPages) marks nothing deleted', async () => {
    const kind = `fp${randomUUID().slice(0, 8)}`;
    const complete = syncer('full_refresh', kind, `/${kind}`);
    await complete([A, B, C]);
    const cut = syncer('full_refresh', kind, `/${kind}`, 1);
    const summary = await cut([A, B, C]);
    expect(summary.status).toBe('partial');
    expect(await live(kind)).toEqual(['a=1', 'b=1', 'c=1']);
  });

  it('full_refresh: a replay rebuilds the records of the last complete run, never one a later run no longer returned', async () => {
    const kind = `fr${randomUUID().slice(0, 8)}`;
    const sync = syncer('full_refresh', kind, `/${kind}`);
    await sync([A, B, C]);
    await sync([A, B2]);
    await given.database.pool.query('delete from records where kind = $1', [kind]);
    await sync.replay();
    expect(await live(kind)).toEqual(['a=1', 'b=2']);
    expect((await given.database.pool.query('select 1 from records where kind = $1', [kind])).rowCount).toBe(2);
  });
});

/** A store whose first full_refresh sweep commits and then fails as a dropped connection does: the run waits the outage out and sweeps again, finding nothing left. */
function droppingAfterSweep(store: RunStore): RunStore {
  let dropped = false;
  const deletions = Object.create(store.deletions) as RunStore['deletions'];
  deletions.sweep = async (runId, scope) => {
    const swept = await store.deletions.sweep(runId, scope);
    if (dropped) return swept;
    dropped = true;
    throw new Error('Connection terminated unexpectedly');
  };
  return { ...store, deletions };
}
