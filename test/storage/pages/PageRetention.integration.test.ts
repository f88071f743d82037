import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/loading/loadConfig.js';
import type { Config } from '../../../src/config/schema.js';
import { PageRetention } from '../../../src/storage/pages/PageRetention.js';
import { pageOf } from '../../support/storedPages.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();
let retention: PageRetention;

beforeAll(() => {
  retention = new PageRetention(given.database.pool);
});

/** A config of one job, named for the test, with this retention of stored pages (on the job, or on its source). */
function configOf(job: string, envelopes: Record<string, number> | undefined, on: 'job' | 'source' = 'job'): Config {
  const retention = envelopes ? { envelopes } : undefined;
  return parseConfig(
    {
      sources: { explorer: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k', path: '/api', ...(on === 'source' && retention ? { retention } : {}) } },
      jobs: [{ name: job, source: 'explorer', records: { path: 'result', kind: 'tx', key: 'hash' }, queries: [{ q: 'x' }], ...(on === 'job' && retention ? { retention } : {}) }],
    },
    'test',
    {},
  );
}

/** A run of the job that stored these pages (each page's records given by a marker) and ended so, finished `daysAgo`. */
async function storedRun(job: string, markers: string[], daysAgo: number, status: 'succeeded' | 'partial' | 'failed' = 'succeeded'): Promise<string> {
  const run = await given.store.claims.claim({ runKey: `retention-test/${randomUUID()}`, job, source: 'explorer', queryIndex: 0, queryKey: 'k', query: { q: 'x', params: {} } });
  for (const [index, marker] of markers.entries()) await given.store.pages.storePage(run.id, index, pageOf(`tx_${job.replaceAll('-', '_')}`, [{ hash: `0x${index}`, value: marker }], 'hash'), 'explorer');
  await given.store.finishes.finish(run.id, { status, ...(status === 'succeeded' ? {} : { errorKind: 'test', error: `${status} for the test` }) }, () => undefined);
  await given.database.pool.query(`update sync_runs set started_at = now() - make_interval(days => $2), finished_at = now() - make_interval(days => $2) where id = $1`, [run.id, daysAgo]);
  return run.id;
}

async function envelopesOf(runIds: string[]): Promise<number[]> {
  return Promise.all(runIds.map(async (id) => Number((await given.database.pool.query<{ n: string }>('select count(*) as n from envelopes where run_id = $1', [id])).rows[0]!.n)));
}

const bodyStored = async (marker: string) => (await given.database.pool.query(`select 1 from page_bodies where body::text like $1`, [`%"value":"${marker}"%`])).rowCount === 1;

describe('PageRetention', () => {
  it('keeps the last keepLastRuns succeeded runs of a query, deleting the older ones’ envelopes and the bodies only they referred to', async () => {
    const job = `count-${randomUUID().slice(0, 8)}`;
    const mark = (n: number) => `${job}-${n}`;
    const runs = [await storedRun(job, [mark(1)], 4), await storedRun(job, [mark(2)], 3), await storedRun(job, [mark(3)], 2), await storedRun(job, [mark(4)], 1)];
    const result = await retention.prune(configOf(job, { keepLastRuns: 2 }));
    expect(await envelopesOf(runs)).toEqual([0, 0, 1, 1]);
    expect([await bodyStored(mark(1)), await bodyStored(mark(2)), await bodyStored(mark(3)), await bodyStored(mark(4))]).toEqual([false, false, true, true]);
    expect(result.jobs).toEqual([{ job, envelopes: 2 }]);
    expect(result.bodies).toBeGreaterThanOrEqual(2);
  });

  it('deletes the pages of runs older than maxAgeDays, set on the job’s source', async () => {
    const job = `age-${randomUUID().slice(0, 8)}`;
    const runs = [await storedRun(job, [`${job}-old`], 10), await storedRun(job, [`${job}-new`], 1)];
    await retention.prune(configOf(job, { maxAgeDays: 7 }, 'source'));
    expect(await envelopesOf(runs)).toEqual([0, 1]);
  });

  it('never deletes a body that a kept run still refers to', async () => {
    const job = `shared-${randomUUID().slice(0, 8)}`;
    const runs = [await storedRun(job, [`${job}-same`], 10), await storedRun(job, [`${job}-same`], 1)];
    await retention.prune(configOf(job, { maxAgeDays: 7 }));
    expect(await envelopesOf(runs)).toEqual([0, 1]);
    expect(await bodyStored(`${job}-same`)).toBe(true);
  });

  it('keeps the pages of failed and partial runs, however old', async () => {
    const job = `failed-${randomUUID().slice(0, 8)}`;
    const failed = await storedRun(job, [`${job}-f`], 30, 'failed');
    const partial = await storedRun(job, [`${job}-p`], 30, 'partial');
    await retention.prune(configOf(job, { maxAgeDays: 7, keepLastRuns: 1 }));
    expect(await envelopesOf([failed, partial])).toEqual([1, 1]);
  });

  it('keeps everything for a job without a policy', async () => {
    const job = `none-${randomUUID().slice(0, 8)}`;
    const old = await storedRun(job, [`${job}-a`], 400);
    await retention.prune(configOf(job, undefined));
    expect(await envelopesOf([old])).toEqual([1]);
  });

  it('plans the bodies no envelope refers to already, which prune deletes whatever the policies', async () => {
    const job = `orphan-${randomUUID().slice(0, 8)}`;
    const config = configOf(job, undefined);
    const before = await retention.plan(config);
    const run = await storedRun(job, [`${job}-o`], 1);
    const { rows } = await given.database.pool.query<{ bytes: number }>('delete from envelopes where run_id = $1 returning bytes', [run]);

    const planned = await retention.plan(config);

    expect(planned.bodies - before.bodies).toBe(1);
    expect(planned.bytes - before.bytes).toBe(rows[0]!.bytes);
    expect(await bodyStored(`${job}-o`)).toBe(true);
    await retention.prune(config);
    expect(await bodyStored(`${job}-o`)).toBe(false);
  });

  it('plans, removing nothing, exactly what prune then removes', async () => {
    const job = `dry-${randomUUID().slice(0, 8)}`;
    const runs = [await storedRun(job, [`${job}-1`, `${job}-2`], 9), await storedRun(job, [`${job}-3`], 8), await storedRun(job, [`${job}-3`], 1)];
    const config = configOf(job, { maxAgeDays: 7 });
    const orphansAlready = (await retention.plan(configOf(job, undefined))).bodies;
    const planned = await retention.plan(config);
    expect(await envelopesOf(runs)).toEqual([2, 1, 1]);
    expect(planned).toMatchObject({ jobs: [{ job, runs: 2, envelopes: 3 }], envelopes: 3 });
    expect(planned.bodies - orphansAlready).toBe(2);
    const pruned = await retention.prune(config);
    expect(pruned.envelopes).toBe(planned.envelopes);
    expect(pruned.bodies).toBe(planned.bodies);
    expect(await envelopesOf(runs)).toEqual([0, 0, 1]);
    expect(await bodyStored(`${job}-3`)).toBe(true);
  });
});
