import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { ensureLocalStack, type LocalStack } from '../../src/localstack/localStack.js';

let stack: LocalStack | undefined;
let scratchRoot: string | undefined;

/**
 * Starts throwaway Redis and Postgres unless REDIS_URL / DATABASE_URL point at running ones, and
 * makes the one directory the tests write their files under.
 */
export async function setup(project: TestProject): Promise<void> {
  scratchRoot = await mkdtemp(join(tmpdir(), 'feedsync-test-'));
  project.provide('scratchRoot', scratchRoot);
  stack = await ensureLocalStack();
  project.provide('redisUrl', stack.redisUrl);
  project.provide('databaseUrl', stack.databaseUrl);
}

export async function teardown(): Promise<void> {
  try {
    await stack?.stop();
  } finally {
    if (scratchRoot) await rm(scratchRoot, { recursive: true, force: true });
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    databaseUrl: string;
    /** Removed with everything in it when the test run ends. */
    scratchRoot: string;
  }
}
