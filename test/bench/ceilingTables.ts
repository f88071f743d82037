import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/** A scratch schema holding tables shaped like feedsync's, and the run its envelopes belong to. */
export interface CeilingTables {
  schema: string;
  runId: string;
  drop(): Promise<void>;
}

/** Scratch schemas an interrupted bench left behind (`ceiling_` and 12 hex digits): dropped before a new one is made. */
async function dropLeftoverSchemas(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname ~ '^ceiling_[0-9a-f]{12}$'`);
  for (const { name } of rows) await client.query(`drop schema ${name} cascade`);
}

/**
 * Creates `ceiling_<random>` with `records`, `envelopes` and `page_bodies` as feedsync has them
 * (LIKE … INCLUDING ALL: columns, types, defaults, primary keys, indexes, checks, lz4
 * compression), the envelopes' foreign keys to their body and their run, and one `sync_runs` row
 * for them to refer to. The sequences are the schema's own, so feedsync's are not drawn from.
 * feedsync's tables are named as its statements name them, unqualified (the search path).
 */
export async function createCeilingTables(client: pg.Client): Promise<CeilingTables> {
  await dropLeftoverSchemas(client);
  const schema = `ceiling_${randomBytes(6).toString('hex')}`;
  await client.query(`create schema ${schema}`);
  const drop = async (): Promise<void> => {
    // Dropped at once, so that autovacuum of these tables does not run during later measurements.
    await client.query(`drop schema if exists ${schema} cascade`);
  };
  try {
    await client.query(`
      create sequence ${schema}.records_change_seq;
      create sequence ${schema}.envelopes_id_seq;
      create table ${schema}.sync_runs (like sync_runs including all);
      create table ${schema}.page_bodies (like page_bodies including all);
      create table ${schema}.envelopes (like envelopes including all);
      alter table ${schema}.envelopes alter column id set default nextval('${schema}.envelopes_id_seq'),
        add foreign key (run_id) references ${schema}.sync_runs (id) on delete cascade,
        add foreign key (content_hash) references ${schema}.page_bodies (content_hash);
      create table ${schema}.records (like records including all);
      alter table ${schema}.records alter column change_seq set default nextval('${schema}.records_change_seq');`);
    const { rows } = await client.query<{ id: string }>(
      `insert into ${schema}.sync_runs (run_key, job, source, query_index, query_key, query) values ('ceiling', 'ceiling', 'explorer', 0, 'ceiling', '{}') returning id`,
    );
    return { schema, runId: rows[0]!.id, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}
