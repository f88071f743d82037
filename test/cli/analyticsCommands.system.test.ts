import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kindsSectionSchema } from '../../src/config/analytics/kindsSchema.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { startFeedsync, writeConfig } from '../support/feedsyncProcess.js';
import { simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let simulator: Simulator;
let database: TestDatabase;
let tree: ConfigInput;
let configFile: string;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 5, music: { artists: 120, users: 1, playsPerUser: 1 } });
  database = await createTestDatabase();
  tree = {
    sources: simulatorSources(simulator),
    jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
    kinds: {
      artist: { columns: { name: { path: 'name', type: 'text' }, listeners: { path: 'listeners', type: 'integer' }, mbid_as_number: { path: 'mbid', type: 'numeric' } } },
      album: {},
    },
  };
  configFile = await writeConfig(tree);
  const ran = await feedsync('run', 'artists', '--config', configFile);
  expect(ran.code, ran.output).toBe(0);
}, 60_000);
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

async function feedsync(...args: string[]) {
  const process = startFeedsync(args, { DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  const { code } = await process.exited;
  return { code, output: process.output() };
}

const artistCount = async () => Number((await database.pool.query<{ n: string }>(`select count(*) as n from records where kind = 'artist'`)).rows[0]!.n);

describe('feedsync migrate, views check, export and schema infer', () => {
  it('migrate makes the kinds’ views and warns of a kind no job stores, without the upstreams’ variables', async () => {
    const { code, output } = await feedsync('migrate', '--config', configFile);
    expect(code, output).toBe(0);
    expect(output).toContain('views in schema analytics: analytics.artist, analytics.artist_changes, analytics.artist_history');
    expect(output).toContain('warning: ');
    expect(output).toContain('kinds.album: no job stores records of kind "album"');
    const { rows } = await database.pool.query<{ n: string }>('select count(*) as n from analytics.artist where listeners is not null');
    expect(Number(rows[0]!.n)).toBe(await artistCount());
  });

  it('views check prints per column how many stored values do not cast', async () => {
    expect((await feedsync('migrate', '--config', configFile)).code).toBe(0);
    const { code, output } = await feedsync('views', 'check', '--config', configFile);
    expect(code, output).toBe(0);
    const artists = await artistCount();
    const row = (column: string) => output.split('\n').find((line) => line.startsWith('artist') && line.includes(` ${column} `))!.trim().split(/\s+/);
    expect(row('listeners')).toEqual(['artist', 'listeners', 'integer', String(artists), '0']);
    // mbids are UUIDs: none casts to numeric.
    expect(row('mbid_as_number')).toEqual(['artist', 'mbid_as_number', 'numeric', String(artists), String(artists)]);
    expect(output).toContain(`${artists} values do not cast`);
  });

  it('export streams every change after --since as JSON lines, then the last change_seq; from there, nothing', async () => {
    const all = await feedsync('export', '--kind', 'artist', '--since', '0');
    expect(all.code, all.output).toBe(0);
    const lines = all.output.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const changes = lines.slice(0, -1);
    expect(changes).toHaveLength(await artistCount());
    expect(changes[0]).toMatchObject({ op: 'upsert', source: 'music' });
    expect(typeof (changes[0]!.payload as { name?: unknown }).name).toBe('string');
    const last = lines[lines.length - 1]!.last_change_seq as number;
    expect(last).toBe(changes[changes.length - 1]!.change_seq);
    const rest = await feedsync('export', '--kind', 'artist', '--since', String(last));
    expect(rest.output.trim()).toBe(`{"last_change_seq":${last}}`);
  });

  it('export --format csv writes a header, a row per change with the payload quoted, and the last change_seq as a comment', async () => {
    const { code, output } = await feedsync('export', '--kind', 'artist', '--format', 'csv');
    expect(code, output).toBe(0);
    const lines = output.trim().split('\n');
    expect(lines[0]).toBe('change_seq,op,source,key,changed_at,deleted_at,payload');
    expect(lines[1]).toMatch(/^\d+,upsert,music,ar-\d+,\d{4}-[^,]+,,"\{""/);
    expect(lines[lines.length - 1]).toMatch(/^# last_change_seq \d+$/);
  });

  it('export names a bad --since or --format', async () => {
    const since = await feedsync('export', '--kind', 'artist', '--since', '-1');
    expect(since.code).not.toBe(0);
    expect(since.output).toContain('--since must be a change_seq: an integer from 0, got "-1"');
    const format = await feedsync('export', '--kind', 'artist', '--format', 'xml');
    expect(format.code).not.toBe(0);
    expect(format.output).toContain('--format must be one of jsonl, csv, got "xml"');
  });

  it('schema infer prints kinds YAML the config accepts', async () => {
    const { code, output } = await feedsync('schema', 'infer', 'artist', '--sample', '50');
    expect(code, output).toBe(0);
    const yaml = output.slice(output.indexOf('kinds:'));
    const kinds = kindsSectionSchema.parse((parse(yaml) as { kinds: unknown }).kinds);
    expect(kinds.artist!.columns).toMatchObject({ name: { type: 'text' }, listeners: { type: 'bigint' }, tags: { type: 'jsonb' } });
  });

  it('schema infer of a kind with no stored records says so and exits non-zero', async () => {
    const { code, output } = await feedsync('schema', 'infer', 'nothing');
    expect(code).not.toBe(0);
    expect(output).toContain('no stored records of kind "nothing": nothing to infer from');
  });
});
