import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { inferColumns, kindYaml } from '../../src/analytics/inferKind.js';
import { inferKind } from '../../src/analytics/kindInference.js';
import { applyKindViews } from '../../src/analytics/kindViews.js';
import { checkKindViews } from '../../src/analytics/viewsCheck.js';
import { kindsSectionSchema } from '../../src/config/analytics/kindsSchema.js';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { RecordLeafRow } from '../../src/analytics/statements/readRecordLeaves.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { runJobNow } from '../../src/sync/runJobNow.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { validTree } from '../support/configTrees.js';
import { capturingLogger, configFor } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

/** Leaves as readRecordLeaves gives them, from plain records. */
function leavesOf(records: Record<string, unknown>[]): RecordLeafRow[] {
  const rows: RecordLeafRow[] = [];
  const walk = (record: string, path: string[], value: unknown): void => {
    const type = value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as RecordLeafRow['type']);
    rows.push({ record, path, type, text: type === 'string' || type === 'number' || type === 'boolean' ? String(value) : null });
    if (type === 'object') for (const [key, inner] of Object.entries(value as object)) walk(record, [...path, key], inner);
  };
  records.forEach((record, index) => Object.entries(record).forEach(([key, value]) => walk(String(index), [key], value)));
  return rows;
}

describe('inferColumns', () => {
  it('gives each leaf path the narrowest type every sampled value fits', () => {
    const columns = inferColumns(
      leavesOf([
        { small: 5, big: '3000000000', huge: '9223372036854775808', price: '1.50', flag: true, day: '2024-02-29', at: '2024-02-29T10:00:00Z', name: 'x' },
        { small: '-7', big: 12, huge: 1, price: 3, flag: 'false', day: '2024-03-01', at: '2024-03-01 11:00', name: 42 },
      ]),
    );
    expect(columns).toEqual({
      at: { path: ['at'], type: 'timestamptz' },
      big: { path: ['big'], type: 'numeric' },
      day: { path: ['day'], type: 'date' },
      flag: { path: ['flag'], type: 'boolean' },
      huge: { path: ['huge'], type: 'numeric' },
      name: { path: ['name'], type: 'text' },
      price: { path: ['price'], type: 'numeric' },
      small: { path: ['small'], type: 'numeric' },
    });
  });

  it('types digits sent as text numeric, however small the sample: amounts in wei outgrow every integer type', () => {
    const columns = inferColumns(leavesOf([{ value: '0', gasPrice: '12', blockReward: '2000000000000000000' }, { value: '7', gasPrice: '30', blockReward: '0' }]));
    expect(columns).toEqual({
      block_reward: { path: ['blockReward'], type: 'numeric' },
      gas_price: { path: ['gasPrice'], type: 'numeric' },
      value: { path: ['value'], type: 'numeric' },
    });
  });

  it('types JSON integers bigint however small, and numeric past bigint', () => {
    const columns = inferColumns(leavesOf([{ n: 1, wide: 1 }, { n: 2, wide: 1e20 }]));
    expect(columns).toEqual({
      n: { path: ['n'], type: 'bigint' },
      wide: { path: ['wide'], type: 'numeric' },
    });
  });

  it('walks into objects, takes arrays and mixed object/scalar paths whole as jsonb, and names columns in snake_case', () => {
    const columns = inferColumns(
      leavesOf([
        { artist: { name: 'A', mbid: '' }, tags: ['a'], '@attr': { nowPlaying: 'true' }, blockNumber: '1', mixed: { a: 1 } },
        { artist: { name: 'B', mbid: null }, tags: [], '@attr': { nowPlaying: 'false' }, blockNumber: '2', mixed: 'flat' },
      ]),
    );
    expect(columns).toEqual({
      artist_mbid: { path: ['artist.mbid'], type: 'text' },
      artist_name: { path: ['artist.name'], type: 'text' },
      attr_now_playing: { path: ['@attr.nowPlaying'], type: 'boolean' },
      block_number: { path: ['blockNumber'], type: 'numeric' },
      mixed: { path: ['mixed'], type: 'jsonb' },
      tags: { path: ['tags'], type: 'jsonb' },
    });
  });

  it('takes integers of seconds since 1970 under a time-like name for timestamps, and renames a column every view has', () => {
    const columns = inferColumns(leavesOf([{ uts: '1700000000', timeStamp: 1600000000, count: 1700000000, key: 'k' }]));
    expect(columns).toEqual({
      count: { path: ['count'], type: 'bigint' },
      key_value: { path: ['key'], type: 'text' },
      time_stamp: { path: ['timeStamp'], type: 'timestamptz', from: 'unix_seconds' },
      uts: { path: ['uts'], type: 'timestamptz', from: 'unix_seconds' },
    });
  });

  it('writes YAML that the config reads back as the same columns', () => {
    const columns = inferColumns(leavesOf([{ '#text': 'a', uts: '1700000000', n: 1 }]));
    const section = (parse(kindYaml('listen', columns)) as { kinds: unknown }).kinds;
    expect(kindsSectionSchema.parse(section)).toEqual({ listen: { columns, indexes: [] } });
  });
});

describe('kindYaml', () => {
  it('prints YAML that config check takes as printed: names YAML would read otherwise quoted, fields no dot path can name left out', () => {
    const records = [{ null: 'a', true: true, 12: 'n', 'say "hi"': 'q', 'a.b': 'dotted', 'with space': 's', plain: 'p' }];
    const yaml = kindYaml('null', inferColumns(leavesOf(records)));
    const tree = { ...validTree(), ...(parse(yaml) as object) };
    const config = parseConfig(tree, 'inferred.yaml', { MUSIC_API_KEY: 'k' });
    expect(Object.keys(config.kinds)).toEqual(['null']);
    expect(Object.fromEntries(Object.entries(config.kinds.null!.columns).map(([name, column]) => [name, column.path]))).toEqual({ _12: ['12'], null: ['null'], plain: ['plain'], true: ['true'] });
  });
});

describe('inferKind on the example config’s kinds', () => {
  let simulator: Simulator;
  let database: TestDatabase;
  let example: { jobs: ConfigInput['jobs']; kinds: unknown };

  beforeAll(async () => {
    simulator = await startSimulator({ seed: 7, music: { artists: 300, users: 50, playsPerUser: 30 }, chain: { initialHead: 119_300, blockIntervalMs: 0 } });
    database = await createTestDatabase();
    example = parse(await readFile('feedsync.yaml', 'utf8')) as { jobs: ConfigInput['jobs']; kinds: unknown };
    const jobs = example.jobs.filter((job) => ['artists', 'tracks', 'albums', 'listening-history', 'blocks'].includes(job.name));
    const config = configFor(simulator, jobs);
    const sources = new SourceRegistry(config);
    try {
      for (const job of jobs) await runJobNow(config, job.name, {}, { store: openRunStore(database.db), sources, logger: capturingLogger().logger, resumable: false });
    } finally {
      await sources.close();
    }
  }, 120_000);
  afterAll(async () => {
    await simulator.close();
    await database.drop();
  });

  it.each(['artist', 'track', 'album', 'listen', 'block'])('infers %s columns whose view shows every record, with no value that fails to cast', async (kind) => {
    const inferred = await inferKind(database.pool, kind, { sample: 1_000 });
    expect(inferred.records).toBeGreaterThan(0);
    const kinds = kindsSectionSchema.parse((parse(kindYaml(kind, inferred.columns)) as { kinds: unknown }).kinds);
    await applyKindViews(database.pool, kinds, { schema: 'inferred' });
    const stored = await database.pool.query('select 1 from records where kind = $1', [kind]);
    expect((await database.pool.query(`select * from inferred.${kind}`)).rowCount).toBe(stored.rowCount);
    const checks = await checkKindViews(database.pool, kinds);
    expect(checks.filter((check) => check.uncast > 0)).toEqual([]);
  });

  it('types the example kinds’ telling fields', async () => {
    const types = async (kind: string) => Object.fromEntries(Object.entries((await inferKind(database.pool, kind, { sample: 1_000 })).columns).map(([name, column]) => [name, column.from ? `${column.type} from ${column.from}` : column.type]));
    expect(await types('artist')).toMatchObject({ name: 'text', listeners: 'bigint', tags: 'jsonb' });
    expect(await types('listen')).toMatchObject({ uts: 'timestamptz from unix_seconds', date: 'timestamptz', name: 'text' });
    expect(await types('block')).toMatchObject({ number: 'bigint', timestamp: 'timestamptz from unix_seconds', hash: 'text' });
    expect(await types('album')).toMatchObject({ release_date: 'date', track_count: 'bigint' });
  });

  it('the example config’s own kinds find a value for every column and cast every one', async () => {
    const kinds = kindsSectionSchema.parse(example.kinds);
    const synced = Object.fromEntries(['artist', 'track', 'album', 'listen', 'block'].map((kind) => [kind, kinds[kind]!]));
    const checks = await checkKindViews(database.pool, synced);
    expect(checks.filter((check) => check.present === 0).map((check) => `${check.kind}.${check.column}`)).toEqual([]);
    expect(checks.filter((check) => check.uncast > 0)).toEqual([]);
  });
});
