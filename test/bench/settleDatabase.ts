import pg from 'pg';

const TABLES = ['records', 'envelopes', 'page_bodies', 'dead_letters', 'sync_runs', 'job_ticks', 'notices', 'notice_attempts'];

/** Every table of feedsync's. */
export const FEEDSYNC_TABLES = [...TABLES, 'incremental_cursors'];

/**
 * Between measured phases (untimed): vacuum and analyze feedsync's tables and checkpoint, so
 * that a phase does not pay for the previous one's autovacuum and dirty buffers, as a sync
 * scheduled minutes after another would find them in a live deployment.
 */
export async function settleDatabase(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-settle' });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(`vacuum (analyze) ${TABLES.join(', ')}`);
    await client.query('checkpoint');
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

/**
 * Between two pairs of first run and re-sync (untimed): empties feedsync's tables, so that every
 * first run writes all of its records into tables as empty as the first pair found them.
 */
export async function emptyFeedsyncTables(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-empty' });
  await client.connect();
  try {
    await client.query(`truncate ${FEEDSYNC_TABLES.join(', ')}`);
  } finally {
    await client.end();
  }
}
