import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LONGEST_STORED_KEY, storedKey } from '../../../src/storage/records/storedKey.js';
import { givenListApi, listQuery, syncList } from '../../support/listSync.js';

const given = givenListApi<{ id: string; v: number }>();

describe('storedKey', () => {
  it('keeps a key of up to LONGEST_STORED_KEY bytes as it is', () => {
    const key = 'k'.repeat(LONGEST_STORED_KEY);
    expect(storedKey(key)).toBe(key);
  });

  it('stores a longer key as "sha256:" and the hex digest of its UTF-8', () => {
    const key = 'k'.repeat(LONGEST_STORED_KEY + 1);
    expect(storedKey(key)).toBe(`sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`);
  });

  it("counts a key's length in UTF-8 bytes, not in characters", () => {
    const key = 'é'.repeat(LONGEST_STORED_KEY / 2 + 1);
    expect(storedKey(key)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('a record whose key is longer than an index entry holds', () => {
  it('is stored under its digest, and upserted by the next run, where Postgres would refuse the key itself', async () => {
    const key = 'x'.repeat(5_000);
    const { query } = listQuery(given.api, '/long-keys', 'long-keys', 'long_key_thing');
    const first = await syncList(given, query, '/long-keys', [{ id: key, v: 1 }, { id: 'short', v: 1 }]);
    expect(first).toMatchObject({ status: 'succeeded', counts: { new: 2 } });
    const second = await syncList(given, query, '/long-keys', [{ id: key, v: 2 }, { id: 'short', v: 1 }]);
    expect(second).toMatchObject({ status: 'succeeded', counts: { new: 0, updated: 1, unchanged: 1 } });
    const { rows } = await given.database.pool.query<{ key: string; v: number }>(`select key, (payload->>'v')::int as v from records where kind = 'long_key_thing' order by key`);
    expect(rows).toEqual([
      { key: storedKey(key), v: 2 },
      { key: 'short', v: 1 },
    ]);
  });
});
