import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { ReplayReader } from '../../src/storage/pages/ReplayReader.js';
import { replayJob, type ReplayRequest } from '../../src/sync/replayJob.js';
import type { ReplayOnError } from '../../src/sync/replayQuery.js';
import { runJobNow } from '../../src/sync/runJobNow.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { capturingLogger, configFor } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let simulator: Simulator;
let database: TestDatabase;
let store: RunStore;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 31, music: { artists: 400, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
  database = await createTestDatabase();
  store = openRunStore(database.db);
});
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

/** The records kind of a test's own job. */
const kindOf = (job: string) => `artist_${job.replaceAll('-', '_')}`;

/** A job of its own (name and records kind) searching artists, paged 25 at a time; `records` overrides its selector. */
function artistsJob(name: string, records: Record<string, unknown> = {}): ConfigInput['jobs'][number] {
  return { name, source: 'music', records: { path: 'results.artistmatches.artist', kind: kindOf(name), ...records }, paging: { limit: 25 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] };
}

async function syncNow(job: ConfigInput['jobs'][number]): Promise<void> {
  const config = configFor(simulator, [job]);
  const sources = new SourceRegistry(config);
  try {
    const { summaries } = await runJobNow(config, job.name, {}, { store, sources, logger: capturingLogger().logger, resumable: false });
    expect(summaries.every((summary) => summary.status === 'succeeded')).toBe(true);
  } finally {
    await sources.close();
  }
}

function replay(job: ConfigInput['jobs'][number], options: { onError?: ReplayOnError; signal?: AbortSignal; onPage?: () => void } = {}, request: Partial<ReplayRequest> = {}) {
  return replayJob(configFor(simulator, [job]), { job: job.name, ...request }, {
    store,
    replayReader: new ReplayReader(database.pool),
    logger: capturingLogger().logger,
    onError: options.onError ?? 'stop',
    signal: options.signal,
    onPage: options.onPage,
  });
}

async function recordsOf(kind: string): Promise<{ key: string; payload: unknown; content_hash: string; xmin: string }[]> {
  return (await database.pool.query<{ key: string; payload: unknown; content_hash: string; xmin: string }>('select key, payload, content_hash, xmin::text from records where kind = $1 order by key', [kind])).rows;
}

const musicRequests = () => simulator.stats().music.count;
const count = async (sql: string, params: unknown[] = []) => Number((await database.pool.query<{ n: string }>(sql, params)).rows[0]!.n);

describe('replayJob', () => {
  it('rebuilds, after records.key changed and records were emptied, exactly the records a fresh sync gives, without a request upstream', async () => {
    const name = `keyed-${randomUUID().slice(0, 8)}`;
    await syncNow(artistsJob(name));
    const rekeyed = artistsJob(name, { key: 'name' });
    await database.pool.query('delete from records where kind = $1', [kindOf(name)]);
    const requestsBefore = musicRequests();
    const bodiesBefore = await count('select count(*) as n from page_bodies');

    const replayed = await replay(rekeyed);

    expect(musicRequests()).toBe(requestsBefore);
    expect(await count('select count(*) as n from page_bodies')).toBe(bodiesBefore);
    expect(replayed?.tick).toMatchObject({ trigger: 'replay', status: 'succeeded' });
    const fromReplay = (await recordsOf(kindOf(name))).map(({ key, payload, content_hash }) => ({ key, payload, content_hash }));
    expect(fromReplay.length).toBeGreaterThan(25);
    await database.pool.query('delete from records where kind = $1', [kindOf(name)]);
    await syncNow(rekeyed);
    expect((await recordsOf(kindOf(name))).map(({ key, payload, content_hash }) => ({ key, payload, content_hash }))).toEqual(fromReplay);
  });

  it('changes nothing when replayed twice: the second time every record is unchanged and none is rewritten', async () => {
    const job = artistsJob(`twice-${randomUUID().slice(0, 8)}`);
    await syncNow(job);
    const first = await replay(job);
    const before = await recordsOf(kindOf(job.name));
    const second = await replay(job);
    expect(second?.summaries[0]!.counts).toEqual({ new: 0, updated: 0, unchanged: first!.summaries[0]!.counts.unchanged });
    expect(await recordsOf(kindOf(job.name))).toEqual(before);
  });

  it('says there is nothing to replay for a job with no stored pages', async () => {
    expect(await replay(artistsJob(`never-${randomUUID().slice(0, 8)}`))).toBeUndefined();
  });

  it('stops at a stored page the config no longer fits, naming the run and the page', async () => {
    const job = artistsJob(`unfit-${randomUUID().slice(0, 8)}`);
    await syncNow(job);
    const replayed = await replay({ ...job, records: { path: 'no.such.path', kind: kindOf(job.name) } });
    const summary = replayed!.summaries[0]!;
    expect(summary).toMatchObject({ status: 'failed', pages: 0 });
    expect(summary.error).toMatch(/^run [0-9a-f-]{36} page 1 no longer fits the config: .*no records at/);
    expect(replayed!.tick.status).toBe('failed');
  });

  it('skips such pages when asked and goes on to the last, the run failing with what it skipped', async () => {
    const job = artistsJob(`skip-${randomUUID().slice(0, 8)}`);
    await syncNow(job);
    const stored = await count(`select count(*) as n from envelopes e join sync_runs r on r.id = e.run_id where r.job = $1`, [job.name]);
    const replayed = await replay({ ...job, records: { path: 'no.such.path', kind: kindOf(job.name) } }, { onError: 'skip' });
    const summary = replayed!.summaries[0]!;
    expect(summary.pages).toBe(stored);
    expect(summary.skipped).toHaveLength(stored);
    expect(summary.status).toBe('failed');
    expect(summary.error).toContain(`${stored} stored page(s) skipped`);
  });

  it('goes on from its last page after a stop, the same request resuming the same tick', async () => {
    const job = artistsJob(`resume-${randomUUID().slice(0, 8)}`);
    await syncNow(job);
    const stored = await count(`select count(*) as n from envelopes e join sync_runs r on r.id = e.run_id where r.job = $1`, [job.name]);
    const expected = await recordsOf(kindOf(job.name));
    await database.pool.query('delete from records where kind = $1', [kindOf(job.name)]);
    const stop = new AbortController();
    const stopped = await replay(job, { signal: stop.signal, onPage: () => stop.abort() });
    expect(stopped!.summaries[0]).toMatchObject({ status: 'interrupted', pages: 1 });
    expect(stopped!.tick.status).toBe('running');

    const resumed = await replay(job);

    expect(resumed).toMatchObject({ resumed: true, tick: { id: stopped!.tick.id, status: 'succeeded' } });
    expect(resumed!.summaries[0]!.pages).toBe(stored);
    expect((await recordsOf(kindOf(job.name))).map(({ key, payload }) => ({ key, payload }))).toEqual(expected.map(({ key, payload }) => ({ key, payload })));
  });
});
