import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config, ConfigInput } from '../../src/config/schema.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import type { TickNotice } from '../../src/notices/tickNotice.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let simulator: Simulator;
let database: TestDatabase;
let feedsync: WorkerProcess | undefined;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 16, music: { artists: 400, users: 6, playsPerUser: 40 }, chain: { initialHead: 50, blockIntervalMs: 0 } });
  database = await createTestDatabase();
});
afterEach(async () => {
  await feedsync?.close();
  feedsync = undefined;
});
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

/** A config whose jobs read the simulator, with a webhook of its own (job notices, the default) and a prefix of its own. */
function configOf(jobs: ConfigInput['jobs']): Config {
  return parseConfig(
    {
      sources: simulatorSources(simulator),
      jobs,
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: crypto.randomUUID(), retryScheduleMs: [200] },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, concurrency: 4, attempts: 2, backoffMs: 100 },
    },
    'test',
    {},
  );
}

async function worker(config: Config): Promise<WorkerProcess> {
  feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger('warn').logger, roles: { worker: true, scheduler: false } });
  await feedsync.start();
  return feedsync;
}

/** Queues a tick of `job` and waits for its one notice at the webhook; returns the notice and the tick's runs. */
async function tickOf(config: Config, process: WorkerProcess, job: string) {
  const { tick, runs } = await enqueueRuns(config, process.runtime.store, process.queues, job);
  const notice = await waitFor(`the notice of ${job}'s tick`, () =>
    simulator
      .requests(config.webhook!.uuid)
      .map((request) => JSON.parse(request.body) as TickNotice)
      .find((posted) => posted.data.tickId === tick.id),
  );
  return { tick, runs, notice };
}

const userHistory = (values: string[]): ConfigInput['jobs'][number] => ({
  name: 'user-history',
  source: 'music',
  records: { path: 'recenttracks.track', key: ['$query', 'id'], kind: 'listen' },
  queries: [{ params: { method: 'user.getRecentTracks' }, forEach: { values }, incremental: { param: 'from', field: 'uts' } }],
});

describe('fan-out through the queue', () => {
  it('runs a query once per value of a field among the records another job stored, and posts one job notice for the tick', async () => {
    const config = configOf([
      { name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'sun', params: { method: 'artist.search' } }] },
      { name: 'top-albums', source: 'music', records: { path: 'topalbums.album', key: ['$query', 'id'], kind: 'artist_top_album' }, queries: [{ params: { method: 'artist.getTopAlbums' }, forEach: { kind: 'artist', field: 'id' } }] },
    ]);
    const process = await worker(config);
    await tickOf(config, process, 'artists');
    const { rows: artists } = await database.pool.query<{ id: string }>(`select payload->>'id' as id from records where kind = 'artist' order by 1`);
    expect(artists.length).toBeGreaterThan(1);

    const { runs, notice } = await tickOf(config, process, 'top-albums');
    expect(runs.map((run) => run.value).sort()).toEqual(artists.map((artist) => artist.id));
    const perArtist = 2;
    expect(notice).toMatchObject({
      type: 'job.succeeded',
      data: { job: 'top-albums', trigger: 'enqueue', runs: { total: artists.length, succeeded: artists.length, failed: 0, skipped: 0 }, records: { new: artists.length * perArtist }, failedRuns: [] },
    });
    // `$query` in the key is the run's value: every album is keyed by the artist it was read for.
    const { rows: albums } = await database.pool.query<{ key: string; artist: string }>(`select key, payload->>'artistId' as artist from records where kind = 'artist_top_album'`);
    expect(albums).toHaveLength(artists.length * perArtist);
    for (const album of albums) expect(album.key.startsWith(`${album.artist}|`)).toBe(true);
  });

  it('keeps an incremental cursor per value: a second tick reads each user from that user\'s own last play', async () => {
    const config = configOf([userHistory(['us-0001', 'us-0002'])]);
    const process = await worker(config);
    const first = await tickOf(config, process, 'user-history');
    expect(first.notice.type).toBe('job.succeeded');
    const { rows: cursors } = await database.pool.query<{ value: string; run_value: string }>(
      `select c.value, r.fan_value as run_value from incremental_cursors c join sync_runs r on r.id = c.run_id where c.job = 'user-history' order by r.fan_value`,
    );
    expect(cursors.map((cursor) => cursor.run_value)).toEqual(['us-0001', 'us-0002']);
    expect(cursors[0]!.value).not.toBe(cursors[1]!.value);

    const second = await tickOf(config, process, 'user-history');
    const { rows: requests } = await database.pool.query<{ value: string; url: string }>(
      `select r.fan_value as value, e.request_url as url from envelopes e join sync_runs r on r.id = e.run_id where r.tick_id = $1 and e.page_seq = 1 order by r.fan_value`,
      [second.tick.id],
    );
    expect(requests.map((request) => [request.value, new URL(request.url).searchParams.get('from')])).toEqual(cursors.map((cursor) => [cursor.run_value, cursor.value]));
  });

  it('follows the values from tick to tick: a value added is run, a value removed is not', async () => {
    const kind = 'fan_user';
    const store = (users: string[]) =>
      database.pool.query(
        `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
          select 'music', $1, u, jsonb_build_object('user', u), 'h', gen_random_uuid(), gen_random_uuid() from unnest($2::text[]) as u`,
        [kind, users],
      );
    const config = configOf([
      {
        name: 'recommendations',
        source: 'music',
        records: { path: 'recommendations.track', key: ['$query', 'id'], kind: 'recommendation' },
        queries: [{ params: { method: 'user.getRecommendations' }, forEach: { kind, field: 'user' } }],
      },
    ]);
    const process = await worker(config);
    await store(['us-0001', 'us-0002']);
    const first = await tickOf(config, process, 'recommendations');
    expect(first.runs.map((run) => run.value).sort()).toEqual(['us-0001', 'us-0002']);
    await database.pool.query(`delete from records where kind = $1 and key = 'us-0001'`, [kind]);
    await store(['us-0003']);
    const second = await tickOf(config, process, 'recommendations');
    expect(second.runs.map((run) => run.value).sort()).toEqual(['us-0002', 'us-0003']);
    expect(second.notice.data.runs).toEqual({ total: 2, succeeded: 2, partial: 0, failed: 0, skipped: 0 });
  });

  it('posts a tick with a failed value as job.partial, naming the value, its error kind and message', async () => {
    const config = configOf([userHistory(['us-0001', 'no-such-user'])]);
    const process = await worker(config);
    const { notice } = await tickOf(config, process, 'user-history');
    expect(notice.type).toBe('job.partial');
    expect(notice.data.runs).toEqual({ total: 2, succeeded: 1, partial: 0, failed: 1, skipped: 0 });
    expect(notice.data.failedRuns).toEqual([expect.objectContaining({ query: 0, value: 'no-such-user', error: { kind: expect.any(String) as unknown, message: expect.stringMatching(/./) as unknown } })]);
  });

  it('posts one notice for a fan-out over a kind with no stored records: a tick of zero runs', async () => {
    const config = configOf([
      { name: 'nothing-yet', source: 'music', records: { path: 'topalbums.album', kind: 'album' }, queries: [{ params: { method: 'artist.getTopAlbums' }, forEach: { kind: 'never_stored', field: 'id' } }] },
    ]);
    const process = await worker(config);
    const { runs, notice } = await tickOf(config, process, 'nothing-yet');
    expect(runs).toEqual([]);
    expect(notice).toMatchObject({ type: 'job.succeeded', data: { runs: { total: 0, succeeded: 0, failed: 0, skipped: 0 } } });
  });
});
