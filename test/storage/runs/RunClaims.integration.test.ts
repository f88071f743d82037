import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunIdentity } from '../../../src/storage/runs/runState.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();

function identity(): RunIdentity {
  return { runKey: `manual/claims/0/${randomUUID()}`, job: 'claims', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } };
}

describe('RunClaims.claim', () => {
  it('counts a crash each time it takes up a run still marked running, its holder having never recorded stopping', async () => {
    const run = identity();
    expect((await given.store.claims.claim(run)).crashes).toBe(0);
    // Each claim after the first is the work of a new holder, the one before it killed.
    expect((await given.store.claims.claim(run)).crashes).toBe(1);
    expect(await given.store.claims.claim(run)).toMatchObject({ crashes: 2, attempt: 3, status: 'running' });
  });

  it('counts no crash for a run its holder stopped and recorded: interrupted by a shutdown, or failed with attempts left', async () => {
    const run = identity();
    for (const status of ['interrupted', 'retrying'] as const) {
      const claimed = await given.store.claims.claim(run);
      await given.store.finishes.finish(claimed.id, { status }, () => undefined);
    }
    expect((await given.store.claims.claim(run)).crashes).toBe(0);
  });
});
