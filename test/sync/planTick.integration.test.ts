import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { findJob, resolveQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config, ConfigInput } from '../../src/config/schema.js';
import { planTick } from '../../src/sync/planTick.js';
import { givenRunStore } from '../support/givenRunStore.js';

const given = givenRunStore();

/** A config of one job, `fan`, whose one query is `query`; each test's own kind keeps its records apart. */
function configOf(query: NonNullable<ConfigInput['jobs'][number]['queries']>[number], job: Partial<ConfigInput['jobs'][number]> = {}): Config {
  return parseConfig(
    {
      sources: { music: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', path: '/2.0/' } },
      jobs: [{ name: 'fan', source: 'music', records: { path: 'items', kind: 'album' }, queries: [query], ...job }],
    },
    'test',
    {},
  );
}

/** Stores records of `kind` directly: the rows a fan-out over stored records reads. */
async function storeRecords(kind: string, records: { key: string; payload: unknown }[], source = 'music'): Promise<void> {
  const run = randomUUID();
  for (const record of records) {
    await given.database.pool.query(
      `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ($1, $2, $3, $4, 'h', $5, $5)`,
      [source, kind, record.key, JSON.stringify(record.payload), run],
    );
  }
}

const plan = (config: Config, request: Parameters<typeof planTick>[3] = { trigger: 'enqueue' }) => planTick(config, findJob(config, 'fan'), given.store, request);

describe('planTick', () => {
  it('makes one run per distinct value of a field among the stored records of a kind', async () => {
    const kind = `artist_${randomUUID().slice(0, 8)}`;
    await storeRecords(kind, [
      { key: 'a', payload: { id: 'ar-1', name: 'A' } },
      { key: 'b', payload: { id: 'ar-2', name: 'B' } },
      { key: 'c', payload: { id: 'ar-1', name: 'A again' } },
    ]);
    const config = configOf({ params: { method: 'artist.getTopAlbums' }, forEach: { kind, field: 'id' } });
    const tick = await plan(config);
    expect(tick.runs.map((run) => [run.value, run.query.q])).toEqual([
      ['ar-1', 'ar-1'],
      ['ar-2', 'ar-2'],
    ]);
    expect(tick.error).toBeUndefined();
  });

  it('reads a nested field, or the record key with $key, and leaves out records without a value', async () => {
    const kind = `user_${randomUUID().slice(0, 8)}`;
    await storeRecords(kind, [
      { key: 'k1', payload: { profile: { name: 'ann' } } },
      { key: 'k2', payload: { profile: {} } },
    ]);
    expect((await plan(configOf({ forEach: { kind, field: 'profile.name' } }))).runs.map((run) => run.value)).toEqual(['ann']);
    expect((await plan(configOf({ forEach: { kind, field: '$key' } }))).runs.map((run) => run.value)).toEqual(['k1', 'k2']);
  });

  it('leaves out the values of records marked deleted: a value that disappears upstream is no longer run', async () => {
    const kind = `artist_${randomUUID().slice(0, 8)}`;
    await storeRecords(kind, [
      { key: 'a', payload: { id: 'ar-1' } },
      { key: 'z', payload: { id: 'ar-9' } },
    ]);
    await given.database.pool.query(`update records set deleted_at = now() where kind = $1 and key = 'z'`, [kind]);
    expect((await plan(configOf({ forEach: { kind, field: 'id' } }))).runs.map((run) => run.value)).toEqual(['ar-1']);
  });

  it('reads the records of another source when forEach names one', async () => {
    const kind = `address_${randomUUID().slice(0, 8)}`;
    await storeRecords(kind, [{ key: 'x', payload: { address: '0xabc' } }], 'explorer');
    const config = parseConfig(
      {
        sources: { music: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', path: '/2.0/' }, explorer: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', path: '/api' } },
        jobs: [{ name: 'fan', source: 'music', records: { path: 'items', kind: 'album' }, queries: [{ forEach: { kind, source: 'explorer', field: 'address' } }] }],
      },
      'test',
      {},
    );
    expect((await plan(config)).runs.map((run) => run.value)).toEqual(['0xabc']);
  });

  it('makes a tick of no runs, and no error, for a kind with no stored records', async () => {
    const tick = await plan(configOf({ forEach: { kind: `none_${randomUUID().slice(0, 8)}`, field: 'id' } }));
    expect(tick.runs).toEqual([]);
    expect(tick.error).toBeUndefined();
  });

  it('reports a field that no stored record has, naming the kind, the field and where it is set', async () => {
    const kind = `artist_${randomUUID().slice(0, 8)}`;
    await storeRecords(kind, [{ key: 'a', payload: { id: 'ar-1' } }]);
    const tick = await plan(configOf({ forEach: { kind, field: 'mbid' } }));
    expect(tick.runs).toEqual([]);
    expect(tick.error).toBe(`jobs[0].queries[0].forEach.field: none of the 1 stored records of kind "${kind}" (source "music") has a value at "mbid"`);
  });

  it('makes one run per listed value, once each, sending it as the parameter forEach names', async () => {
    const config = configOf({ q: 'kept', params: { method: 'user.getRecentTracks' }, forEach: { values: ['us-1', 'us-2', 'us-1'], param: 'user' } });
    const tick = await plan(config);
    expect(tick.runs.map((run) => [run.value, run.query.q, run.query.params.user])).toEqual([
      ['us-1', 'kept', 'us-1'],
      ['us-2', 'kept', 'us-2'],
    ]);
  });

  it('gives each value a queryKey of its own (and so an incremental cursor of its own), stable from tick to tick', async () => {
    const config = configOf({ forEach: { values: ['us-1', 'us-2'] }, incremental: { param: 'from', field: 'uts' } });
    const [first, second] = [await plan(config), await plan(config)];
    const keys = first.runs.map((run) => run.queryKey);
    expect(new Set(keys).size).toBe(2);
    expect(second.runs.map((run) => run.queryKey)).toEqual(keys);
    expect(keys[0]).toBe(resolveQuery(config, findJob(config, 'fan'), 0, 'us-1').queryKey);
  });

  it('runs one value alone when asked for it', async () => {
    const tick = await plan(configOf({ forEach: { values: ['us-1', 'us-2'] } }), { trigger: 'enqueue', value: 'us-9' });
    expect(tick.runs.map((run) => run.value)).toEqual(['us-9']);
  });

  it('refuses a value for a job without fan-out', async () => {
    await expect(plan(configOf({ q: 'a' }), { trigger: 'enqueue', value: 'x' })).rejects.toThrow('a value was given, but no query of job "fan" fans out (forEach)');
  });

  it('gives a schedule tick one run key per query, value and time, the same in every scheduler', async () => {
    const config = configOf({ forEach: { values: ['a/b:c'] } });
    const at = new Date('2026-11-24T03:00:00Z');
    const tick = await plan(config, { trigger: 'schedule', scheduledFor: at });
    expect(tick.tickKey).toBe(`tick/fan/${at.getTime()}`);
    expect(tick.runs.map((run) => run.runKey)).toEqual([`tick/fan/0/${at.getTime()}/a%2Fb%3Ac`]);
  });
});
