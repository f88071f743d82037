import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';

let scratchRoot: string | undefined;

/** Every test project's global setup: the one directory its tests write their files under. */
export async function setup(project: TestProject): Promise<void> {
  scratchRoot = await mkdtemp(join(tmpdir(), 'feedsync-test-'));
  project.provide('scratchRoot', scratchRoot);
}

export async function teardown(): Promise<void> {
  if (scratchRoot) await rm(scratchRoot, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Removed with everything in it when the test run ends. */
    scratchRoot: string;
  }
}
