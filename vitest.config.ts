import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three tiers, marked by file name: `*.test.ts` needs no server, `*.integration.test.ts` uses
 * real Postgres, Redis or HTTP servers in-process, `*.system.test.ts` spawns processes (feedsync,
 * the built package, Chromium, servers it kills). `test/testTiers.test.ts` keeps files in them.
 */
const SERVER_TIERS = 'test/**/*.{integration,system}.test.ts';
const SCRATCH_ROOT = 'test/support/scratchRoot.ts';
// Starts Redis and Postgres once per run, however many projects list it.
const SERVERS = 'test/support/globalSetup.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    // Two cores: integration tests share one Redis and one Postgres, so files run two at a time.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        // No servers, so no shared state to keep apart: one module graph a worker runs them ~3x faster.
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, SERVER_TIERS], globalSetup: [SCRATCH_ROOT], isolate: false },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.integration.test.ts'], globalSetup: [SCRATCH_ROOT, SERVERS] },
      },
      {
        extends: true,
        test: { name: 'system', include: ['test/**/*.system.test.ts'], globalSetup: [SCRATCH_ROOT, SERVERS] },
      },
    ],
  },
});
