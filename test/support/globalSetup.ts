import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { ensureLocalStack, type LocalStack } from '../../src/localstack/localStack.js';
import { migrateDatabase } from '../../src/storage/database/database.js';

let stack: LocalStack | undefined;
let scratchRoot: string | undefined;
let templateDatabase: string | undefined;

/**
 * Starts throwaway Redis and Postgres unless REDIS_URL / DATABASE_URL point at running ones,
 * migrates a template database that each test database is cloned from (cheaper than migrating
 * each), and makes the one directory the tests write their files under.
 */
export async function setup(project: TestProject): Promise<void> {
  scratchRoot = await mkdtemp(join(tmpdir(), 'feedsync-test-'));
  project.provide('scratchRoot', scratchRoot);
  stack = await ensureLocalStack();
  project.provide('redisUrl', stack.redisUrl);
  project.provide('databaseUrl', stack.databaseUrl);
  // Named for this run: two test runs against one server never share it.
  templateDatabase = `feedsync_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(stack.databaseUrl, `CREATE DATABASE ${templateDatabase}`);
  const url = new URL(stack.databaseUrl);
  url.pathname = `/${templateDatabase}`;
  await migrateDatabase(url.href);
  project.provide('templateDatabase', templateDatabase);
}

export async function teardown(): Promise<void> {
  try {
    if (stack && templateDatabase) await adminQuery(stack.databaseUrl, `DROP DATABASE IF EXISTS ${templateDatabase} WITH (FORCE)`);
    await stack?.stop();
  } finally {
    if (scratchRoot) await rm(scratchRoot, { recursive: true, force: true });
  }
}

async function adminQuery(databaseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    databaseUrl: string;
    /** A database with every migration applied, never connected to after setup: test databases are cloned from it. */
    templateDatabase: string;
    /** Removed with everything in it when the test run ends. */
    scratchRoot: string;
  }
}
