import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/database.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

async function settingsOf(url: string): Promise<{ planCacheMode: string; randomPageCost: string; applicationName: string }> {
  const storage = openStorage(url, { max: 1 });
  try {
    const { rows } = await storage.pool.query<{ plan_cache_mode: string; random_page_cost: string; application_name: string }>(
      `select current_setting('plan_cache_mode') as plan_cache_mode, current_setting('random_page_cost') as random_page_cost, current_setting('application_name') as application_name`,
    );
    const [row] = rows;
    return { planCacheMode: row!.plan_cache_mode, randomPageCost: row!.random_page_cost, applicationName: row!.application_name };
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

  it("opens sessions that keep one generic plan per statement and cost pages as on SSDs", async () => {
    expect(await settingsOf(database.url)).toEqual({ planCacheMode: 'force_generic_plan', randomPageCost: '1.1', applicationName: 'feedsync' });
  });

  it('lets options and an application name in the database URL override its own', async () => {
    const url = new URL(database.url);
    url.searchParams.set('options', '-c random_page_cost=2');
    url.searchParams.set('application_name', 'nightly-ingest');
    expect(await settingsOf(url.href)).toEqual({ planCacheMode: 'force_generic_plan', randomPageCost: '2', applicationName: 'nightly-ingest' });
  });
});
