import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { ensureLocalStack, type LocalStack } from '../../src/localstack/localStack.js';
import { adminQuery, createTemplateDatabase } from './templateDatabase.js';

interface Servers {
  stack: LocalStack;
  templateDatabase: string;
}

/**
 * The servers of one test run. Vitest runs a project's global setup once per project, each in a
 * module of its own, so the integration and system projects share them through `globalThis`:
 * the first setup starts them, the last teardown stops them.
 */
interface SharedServers {
  users: number;
  servers: Promise<Servers>;
}

const SHARED = Symbol.for('feedsync.testServers');
const registry = globalThis as { [SHARED]?: SharedServers };

/**
 * Starts throwaway Redis and Postgres unless REDIS_URL / DATABASE_URL point at running ones, and
 * migrates a template database that each test database is cloned from (cheaper than migrating
 * each).
 */
export async function setup(project: TestProject): Promise<void> {
  const shared = (registry[SHARED] ??= { users: 0, servers: startServers() });
  shared.users += 1;
  const { stack, templateDatabase } = await shared.servers;
  project.provide('redisUrl', stack.redisUrl);
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('templateDatabase', templateDatabase);
}

export async function teardown(): Promise<void> {
  const shared = registry[SHARED];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  delete registry[SHARED];
  const { stack, templateDatabase } = await shared.servers;
  try {
    await adminQuery(stack.databaseUrl, `DROP DATABASE IF EXISTS ${templateDatabase} WITH (FORCE)`);
  } finally {
    await stack.stop();
  }
}

async function startServers(): Promise<Servers> {
  const stack = await ensureLocalStack();
  return { stack, templateDatabase: await createTemplateDatabase(stack.databaseUrl) };
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    databaseUrl: string;
    /** A database with every migration applied, never connected to after setup: test databases are cloned from it. */
    templateDatabase: string;
  }
}
