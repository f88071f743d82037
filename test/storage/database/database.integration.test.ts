import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { MIGRATION_LOCK, migrateDatabase, openStorage } from '../../../src/storage/database/database.js';
import { hearUncaughtErrors } from '../../support/uncaughtErrors.js';
import { waitFor } from '../../support/waitFor.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

interface PlannerSettings {
  planCacheMode: string;
  randomPageCost: string;
}

async function plannerSettingsOf(url: string): Promise<PlannerSettings> {
  const storage = openStorage(url, { max: 1 });
  try {
    const { rows } = await storage.pool.query<{ plan_cache_mode: string; random_page_cost: string }>(
      `select current_setting('plan_cache_mode') as plan_cache_mode, current_setting('random_page_cost') as random_page_cost`,
    );
    return { planCacheMode: rows[0]!.plan_cache_mode, randomPageCost: rows[0]!.random_page_cost };
  } finally {
    await storage.close();
  }
}

describe('openStorage', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('opens sessions that keep one generic plan per statement and cost pages as on SSDs', async () => {
    expect(await plannerSettingsOf(database.url)).toEqual({ planCacheMode: 'force_generic_plan', randomPageCost: '1.1' });
  });

  it("leaves a setting given in the database URL's options as it is", async () => {
    const url = new URL(database.url);
    url.searchParams.set('options', '-c random_page_cost=2');
    expect(await plannerSettingsOf(url.href)).toEqual({ planCacheMode: 'force_generic_plan', randomPageCost: '2' });
  });

  it('leaves a setting made for the database (ALTER DATABASE … SET) as it is', async () => {
    const name = new URL(database.url).pathname.slice(1);
    await database.pool.query(`alter database ${name} set plan_cache_mode = auto`);
    try {
      expect(await plannerSettingsOf(database.url)).toEqual({ planCacheMode: 'auto', randomPageCost: '1.1' });
    } finally {
      await database.pool.query(`alter database ${name} reset plan_cache_mode`);
    }
  });
});

describe('migrateDatabase', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('fails with the loss when its connection is lost, throwing nothing unheard', async () => {
    const uncaught = hearUncaughtErrors();
    // Another migrator holds the lock: this one waits on it, its connection idle in a statement.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const migrating = migrateDatabase(database.url);
      // Heard from the start: the loss may reach the migrator before pg_terminate_backend's own answer reaches the test.
      const failed = expect(migrating).rejects.toThrow(/terminating connection|Connection terminated/);
      const pid = await waitFor('the migrator waiting for the lock', async () => {
        const { rows } = await other.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and application_name = 'feedsync-migrate' and wait_event_type = 'Lock'");
        return rows[0]?.pid;
      });
      await other.query('select pg_terminate_backend($1)', [pid]);

      await failed;
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await other.end();
    }
  });
});
