import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { tickNotice } from '../../src/notices/tickNotice.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { runJobNow, type RunJobOptions } from '../../src/sync/runJobNow.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { finishingOnlyFailures } from '../support/faultyStores.js';
import { capturingLogger, configFor } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let simulator: Simulator;

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startSimulator({ seed: 21, music: { artists: 300, users: 3, playsPerUser: 30 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
});
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

/** Two queries of artist.search, paged 20 at a time. */
const searches = (): Config =>
  configFor(simulator, [
    { name: `artists-${Math.random().toString(36).slice(2)}`, source: 'music', paging: { limit: 20 }, records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.search' } }, { q: 'b', params: { method: 'artist.search' } }] },
  ]);

/** Runs the config's job now with run and tick notices, `change`d options; the result, or the error it threw. */
async function runNow(config: Config, change: (options: RunJobOptions) => RunJobOptions = (options) => options) {
  const sources = new SourceRegistry(config);
  const store = openRunStore(database.db, { tickNoticeFor: tickNotice });
  try {
    return await runJobNow(config, config.jobs[0]!.name, {}, change({ store, sources, logger: capturingLogger().logger, noticeFor: completionNotice, resumable: false }));
  } catch (error) {
    return error as Error;
  } finally {
    await sources.close();
  }
}

const runsOf = async (job: string) =>
  (await database.pool.query<{ id: string; status: string; error: string | null; pages: number; seqs: number[] }>(
    `select r.id, r.status, r.error, r.pages, (select coalesce(array_agg(e.page_seq order by e.page_seq), '{}') from envelopes e where e.run_id = r.id) as seqs
      from sync_runs r where r.job = $1 order by r.query_index`,
    [job],
  )).rows;
const tickOf = async (job: string) => (await database.pool.query<{ status: string; notices: number }>('select t.status, (select count(*)::int from notices n where n.tick_id = t.id) as notices from job_ticks t where t.job = $1', [job])).rows;

describe('runJobNow', () => {
  it('ends the runs it never started as failed when interrupted, so that its tick ends with its notice', async () => {
    const config = parseConfig(
      {
        sources: { music: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k-music-0123', path: '/2.0/' } },
        jobs: [{ name: 'users', source: 'music', records: { path: 'items', kind: 'listen' }, queries: [{ params: { method: 'user.getRecentTracks' }, forEach: { values: ['us-1', 'us-2'] } }] }],
      },
      'test',
      {},
    );
    const sources = new SourceRegistry(config);
    const interrupted = new AbortController();
    interrupted.abort();
    try {
      const { tick, summaries } = await runJobNow(config, 'users', {}, { store: openRunStore(database.db, { tickNoticeFor: tickNotice }), sources, logger: capturingLogger().logger, signal: interrupted.signal, resumable: false });
      expect(summaries).toEqual([]);
      const { rows: runs } = await database.pool.query<{ status: string; error: string }>('select status, error from sync_runs where tick_id = $1', [tick.id]);
      expect(runs).toEqual([
        { status: 'failed', error: 'interrupted before the run started' },
        { status: 'failed', error: 'interrupted before the run started' },
      ]);
      const { rows: notices } = await database.pool.query<{ type: string }>('select n.type from notices n join job_ticks t on t.id = n.tick_id where t.id = $1 and t.status = $2', [tick.id, 'failed']);
      expect(notices).toEqual([{ type: 'job.failed' }]);
    } finally {
      await sources.close();
    }
  });

  it('resumes a run whose row moved under it (its own page write committed as the connection dropped), storing every page once', async () => {
    const config = searches();
    const job = config.jobs[0]!.name;
    const result = await runNow(config, (options) => ({ ...options, store: droppingAfterCommit(options.store), databaseOutageMs: 5_000 }));
    expect(result).not.toBeInstanceOf(Error);
    const runs = await runsOf(job);
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);
    expect(runs[0]!.pages).toBeGreaterThan(2);
    for (const run of runs) expect(run.seqs).toEqual(Array.from({ length: run.pages }, (_, i) => i + 1));
    expect(await tickOf(job)).toEqual([{ status: 'succeeded', notices: 1 }]);
  });

  it('ends a run it cannot carry on, and the runs after it, as failed, so that its tick ends with its notice; the error goes to the caller', async () => {
    const config = searches();
    const job = config.jobs[0]!.name;
    const result = await runNow(config, (options) => ({ ...options, store: finishingOnlyFailures(options.store, 'the database went away') }));
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toBe('the database went away');
    const runs = await runsOf(job);
    expect(runs.map(({ status, error }) => ({ status, error }))).toEqual([
      { status: 'failed', error: 'the database went away' },
      { status: 'failed', error: 'the database went away' },
    ]);
    expect(await tickOf(job)).toEqual([{ status: 'failed', notices: 1 }]);
  });

  it('waits out a database outage to record those runs as failed', async () => {
    const config = searches();
    const job = config.jobs[0]!.name;
    const result = await runNow(config, (options) => ({ ...options, databaseOutageMs: 5_000, store: failuresAfterAnOutage(finishingOnlyFailures(options.store, 'the database went away')) }));
    expect((result as Error).message).toBe('the database went away');
    expect((await runsOf(job)).map((run) => run.status)).toEqual(['failed', 'failed']);
    expect(await tickOf(job)).toEqual([{ status: 'failed', notices: 1 }]);
  });
});

/** A store whose first finish of a failure meets the database out of reach (a dropped connection). */
function failuresAfterAnOutage(store: RunStore): RunStore {
  let outage = true;
  const finishes = Object.create(store.finishes) as RunStore['finishes'];
  finishes.finish = (runId, outcome, notice, known) => {
    if (outcome.status !== 'failed' || !outage) return store.finishes.finish(runId, outcome, notice, known);
    outage = false;
    return Promise.reject(new Error('Connection terminated unexpectedly'));
  };
  return { ...store, finishes };
}

/**
 * A store whose first write of a run's third page commits and then fails as a dropped connection
 * does: the run waits the outage out and stores that page again, to find its row moved on.
 */
function droppingAfterCommit(store: RunStore): RunStore {
  let dropped = false;
  const pages = Object.create(store.pages) as RunStore['pages'];
  pages.storePage = async (runId, pagesBefore, page, source) => {
    const stored = await store.pages.storePage(runId, pagesBefore, page, source);
    if (pagesBefore !== 2 || dropped) return stored;
    dropped = true;
    throw new Error('Connection terminated unexpectedly');
  };
  return { ...store, pages };
}
