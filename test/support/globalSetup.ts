import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { ensureLocalStack, type LocalStack } from '../../src/localstack/localStack.js';

let stack: LocalStack | undefined;

/** Starts throwaway Redis and Postgres unless REDIS_URL / DATABASE_URL point at running ones. */
export async function setup(project: TestProject): Promise<void> {
  stack = await ensureLocalStack();
  project.provide('redisUrl', stack.redisUrl);
  project.provide('databaseUrl', stack.databaseUrl);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    databaseUrl: string;
  }
}
