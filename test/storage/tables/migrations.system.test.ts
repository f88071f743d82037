import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../../../src/storage/database/database.js';
import { recordOfKey } from '../../../src/storage/records/keyDigest.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { scratchDir } from '../../support/scratchDir.js';

const run = promisify(execFile);

describe('migrations', () => {
  it('match the Drizzle schema (drizzle-kit generate finds nothing to add)', async () => {
    const copy = await scratchDir('migrations');
    await cp(MIGRATIONS_FOLDER, copy, { recursive: true });
    const before = await readdir(copy);
    // As drizzle.config.ts says. drizzle-kit takes one --schema (a glob) and an --out relative to the working directory.
    const schema = 'src/storage/tables/schema.ts';
    const { stdout } = await run('npx', ['drizzle-kit', 'generate', '--dialect', 'postgresql', '--schema', schema, '--out', relative(process.cwd(), copy)], { timeout: 60_000 });
    expect(stdout).toContain('No schema changes');
    expect(await readdir(copy), stdout).toEqual(before);
  }, 60_000);

  it('keep the pages stored before envelopes.body: each envelope is put back together from its columns', async () => {
    const database = await databaseBefore('0002_envelope_body');
    try {
      const run = await database.pool.query<{ id: string }>(`insert into sync_runs (run_key, job, source, query_index, query_key, query) values ('k', 'j', 's', 0, 'q', '{}') returning id`);
      await database.pool.query(
        `insert into envelopes (run_id, page_seq, request_url, status, message, data, bytes, content_hash) values ($1, 1, 'http://x/api', 'success', 'OK', '{"result":[{"hash":"0xaa"}]}', 10, 'h')`,
        [run.rows[0]!.id],
      );

      await migrateDatabase(database.url);

      const { rows } = await database.pool.query<{ body: unknown }>('select b.body from envelopes e join page_bodies b using (content_hash)');
      expect(rows.map((row) => row.body)).toEqual([{ status: 'success', data: { result: [{ hash: '0xaa' }] }, message: 'OK' }]);
    } finally {
      await database.drop();
    }
  });

  it('move the bodies stored before page_bodies there, one row per hash, each envelope still reaching its own', async () => {
    const database = await databaseBefore('0011_page_bodies');
    try {
      const run = await database.pool.query<{ id: string }>(`insert into sync_runs (run_key, job, source, query_index, query_key, query) values ('k', 'j', 's', 0, 'q', '{}') returning id`);
      const same = '{"status":"success","data":{"result":[1]},"message":"OK"}';
      const other = '{"status":"success","data":{"result":[2]},"message":"OK"}';
      for (const [seq, body, hash] of [[1, same, 'h1'], [2, same, 'h1'], [3, other, 'h2']] as const) {
        await database.pool.query(
          `insert into envelopes (run_id, page_seq, request_url, status, message, body, bytes, content_hash) values ($1, $2, 'http://x/api', 'success', 'OK', $3, $4, $5)`,
          [run.rows[0]!.id, seq, body, body.length, hash],
        );
      }

      await migrateDatabase(database.url);

      const { rows } = await database.pool.query<{ page_seq: number; body: string }>('select e.page_seq, b.body::text as body from envelopes e join page_bodies b using (content_hash) order by e.page_seq');
      expect(rows).toEqual([
        { page_seq: 1, body: same },
        { page_seq: 2, body: same },
        { page_seq: 3, body: other },
      ]);
      expect((await database.pool.query('select 1 from page_bodies')).rowCount).toBe(2);
    } finally {
      await database.drop();
    }
  });

  it('give the records stored before the change feed a change_seq each, none deleted, and drop the old hard-coded views', async () => {
    const database = await databaseBefore('0013_analytics_feed');
    try {
      for (const key of ['a', 'b', 'c']) {
        await database.pool.query(`insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ('s', 'k', $1, '{}', 'h', gen_random_uuid(), gen_random_uuid())`, [key]);
      }

      await migrateDatabase(database.url);

      const { rows } = await database.pool.query<{ seq: string; deleted: boolean }>('select change_seq::text as seq, deleted_at is not null as deleted from records order by change_seq');
      expect(new Set(rows.map((row) => row.seq)).size).toBe(3);
      expect(rows.every((row) => !row.deleted)).toBe(true);
      expect((await database.pool.query(`select 1 from information_schema.views where table_schema = 'public'`)).rowCount).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('list for rekeying each (source, kind) with a stored key holding a "|" or a "\\", and no other', async () => {
    const database = await databaseBefore('0017_composite_key_rekeys');
    try {
      const rows = [['s', 'pipe', 'a|b|c'], ['s', 'slash', 'a\\b|c'], ['s', 'plain', 'abc'], ['t', 'pipe', 'a|b']];
      for (const [source, kind, key] of rows) {
        await database.pool.query(`insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ($1, $2, $3, '{}', 'h', gen_random_uuid(), gen_random_uuid())`, [source, kind, key]);
      }

      await migrateDatabase(database.url);

      const { rows: listed } = await database.pool.query('select source, kind from composite_key_rekeys order by source, kind');
      expect(listed).toEqual([{ source: 's', kind: 'pipe' }, { source: 's', kind: 'slash' }, { source: 't', kind: 'pipe' }]);
    } finally {
      await database.drop();
    }
  });

  it('move a key longer than 1,024 bytes stored as written to its sha256 form, leaving a deletion at the old key, its versions and full_refresh keys too', async () => {
    const database = await databaseBefore('0017_composite_key_rekeys');
    try {
      const long = `${'x'.repeat(1_500)}|y`;
      const digest = `sha256:${createHash('sha256').update(long).digest('hex')}`;
      await database.pool.query(`insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ('s', 'long', $1, '{"v":1}', 'h', gen_random_uuid(), gen_random_uuid())`, [long]);
      await database.pool.query(`insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ('s', 'long', 'short', '{}', 'h', gen_random_uuid(), gen_random_uuid())`);
      await database.pool.query(`insert into record_versions (source, kind, key, payload, content_hash, change_seq, run_id) values ('s', 'long', $1, '{}', 'h', 1, gen_random_uuid())`, [long]);
      await database.pool.query(`insert into full_refresh_keys (scope, source, kind, key, run_id) values ('j/q', 's', 'long', $1, gen_random_uuid())`, [long]);
      const { rows: before } = await database.pool.query<{ seq: string }>(`select change_seq::text as seq from records where key = $1`, [long]);

      await migrateDatabase(database.url);

      const { rows } = await database.pool.query<{ key: string; deleted: boolean; v: number | null; seq: string }>(
        `select key, deleted_at is not null as deleted, (payload->>'v')::int as v, change_seq::text as seq from records where kind = 'long' order by key desc`,
      );
      expect(rows.map(({ key, deleted, v }) => ({ key, deleted, v }))).toEqual([
        { key: long, deleted: true, v: 1 },
        { key: 'short', deleted: false, v: null },
        { key: digest, deleted: false, v: 1 },
      ]);
      expect(rows.filter((row) => row.key !== 'short').every((row) => BigInt(row.seq) > BigInt(before[0]!.seq))).toBe(true);
      expect((await database.pool.query('select key from record_versions')).rows).toEqual([{ key: digest }]);
      expect((await database.pool.query('select key from full_refresh_keys')).rows).toEqual([{ key: digest }]);
      expect((await database.pool.query('select source, kind from composite_key_rekeys')).rows).toEqual([{ source: 's', kind: 'long' }]);
    } finally {
      await database.drop();
    }
  });

  it('move every record into a partition of its kind, row for row, keeping the primary key and the change feed\'s index', async () => {
    const database = await databaseBefore('0019_records_partitions');
    try {
      await database.pool.query(
        `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, deleted_at)
         select 's', kind, kind || n, jsonb_build_object('n', n, 'big', 12345678901234567890::numeric), md5(kind || n), gen_random_uuid(), gen_random_uuid(),
           case when n % 7 = 0 then now() end
         from unnest(array['artist', 'transaction', 'a_kind_whose_name_is_far_longer_than_a_partition_name_may_be']) as kind, generate_series(1, 300) as n`,
      );
      // The columns of 0019 (0022 adds key_digest).
      const everyRow = `select md5(string_agg((r.source, r.kind, r.key, r.payload, r.content_hash, r.first_seen_run_id, r.last_changed_run_id, r.first_seen_at, r.changed_at, r.deleted_at, r.change_seq)::text, ',' order by kind, key)) as digest,
        count(*)::int as n from records r`;
      const before = (await database.pool.query<{ digest: string; n: number }>(everyRow)).rows[0]!;

      await migrateDatabase(database.url);

      expect((await database.pool.query(everyRow)).rows[0]).toEqual(before);
      const { rows: parts } = await database.pool.query<{ part: string; n: number }>(
        `select tableoid::regclass::text as part, count(*)::int as n from records group by 1 order by 1`,
      );
      // A kind too long for a table name is named by a digest.
      const named = parts.map((part) => ({ ...part, part: part.part.replace(/^records_of_[0-9a-f]{24}$/, 'records_of_<digest>') }));
      expect(named.sort((a, b) => a.part.localeCompare(b.part))).toEqual([
        { part: 'records_of_<digest>', n: 300 },
        { part: 'records_of_artist', n: 300 },
        { part: 'records_of_transaction', n: 300 },
      ]);
      await expect(
        database.pool.query(`insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ('s', 'artist', 'artist1', '{}', 'h', gen_random_uuid(), gen_random_uuid())`),
      ).rejects.toMatchObject({ code: '23505', constraint: 'records_of_artist_pkey' });
      const { rows: plan } = await database.pool.query<{ 'QUERY PLAN': string }>(`explain select * from records where kind = 'artist' and change_seq > 5 order by change_seq limit 10`);
      expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Index Scan using records_of_artist_kind_change_seq_\w*idx/);
      // A page's proof (storeProvenPage) is counted from that index alone, its records' run included (migration 0021).
      const client = await database.pool.connect();
      try {
        await client.query('vacuum records_of_artist');
        await client.query('set enable_seqscan = off');
        await client.query('set enable_bitmapscan = off');
        const { rows: proof } = await client.query<{ 'QUERY PLAN': string }>(
          `explain select count(*) from records c where c.kind = 'artist' and c.change_seq between 1 and 100 and c.last_changed_run_id = gen_random_uuid()`,
        );
        expect(proof.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan using records_of_artist_kind_change_seq_\w*idx/);
      } finally {
        client.release();
      }
    } finally {
      await database.drop();
    }
  });

  it('key every record by the digest of its source and key, row for row, each found through the primary key', async () => {
    const database = await databaseBefore('0022_records_key_digest');
    try {
      await database.pool.query(`select feedsync_records_partition('artist')`);
      await database.pool.query(
        `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
         select source, 'artist', 'artist' || n, jsonb_build_object('n', n), md5(source || n), gen_random_uuid(), gen_random_uuid()
         from unnest(array['s', 't']) as source, generate_series(1, 300) as n`,
      );
      const everyRow = 'select md5(string_agg(r::text, \',\' order by source, key)) as digest, count(*)::int as n from records r';
      const before = (await database.pool.query<{ digest: string; n: number }>(everyRow)).rows[0]!;

      await migrateDatabase(database.url);

      expect((await database.pool.query(everyRow.replace('r::text', '(r.source, r.kind, r.key, r.payload, r.content_hash, r.first_seen_run_id, r.last_changed_run_id, r.first_seen_at, r.changed_at, r.deleted_at, r.change_seq)::text'))).rows[0]).toEqual(before);
      const find = `select payload->>'n' as n from records c where ${recordOfKey('c', "'artist7'", "'t'", "'artist'")}`;
      expect((await database.pool.query(find)).rows).toEqual([{ n: '7' }]);
      const { rows: plan } = await database.pool.query<{ 'QUERY PLAN': string }>(`explain ${find}`);
      expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Index Scan using records_of_artist_pkey/);
      await expect(
        database.pool.query(`insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ('s', 'artist', 'artist1', '{}', 'h', gen_random_uuid(), gen_random_uuid())`),
      ).rejects.toMatchObject({ code: '23505', constraint: 'records_of_artist_pkey' });
    } finally {
      await database.drop();
    }
  });

  describe('applied to an empty database', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(() => database.drop());

    it('create the tables, and no view: the kinds\' views come from the config', async () => {
      const { rows } = await database.pool.query<{ name: string; type: string }>(
        `select table_name as name, table_type as type from information_schema.tables where table_schema = 'public' order by 1`,
      );
      expect(rows.filter((r) => r.type === 'VIEW')).toEqual([]);
      expect(rows.filter((r) => r.type === 'BASE TABLE').map((r) => r.name)).toEqual(
        expect.arrayContaining(['envelopes', 'incremental_cursors', 'notice_attempts', 'notices', 'records', 'record_versions', 'full_refresh_keys', 'sync_runs']),
      );
    });

    it('compress page bodies with lz4', async () => {
      const { rows } = await database.pool.query<{ c: string }>(`select attcompression as c from pg_attribute where attrelid = 'page_bodies'::regclass and attname = 'body'`);
      expect(rows[0]?.c).toBe('l');
    });
  });
});

/** A database with the migrations as they stood before `tag`: to store rows as older versions did, then migrate. */
async function databaseBefore(tag: string): Promise<TestDatabase> {
  const older = await scratchDir('migrations');
  await cp(MIGRATIONS_FOLDER, older, { recursive: true });
  const journalFile = join(older, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const since = journal.entries.findIndex((entry) => entry.tag === tag);
  for (const entry of journal.entries.slice(since)) await rm(join(older, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, since);
  await writeFile(journalFile, JSON.stringify(journal));
  return createTestDatabase(older);
}
