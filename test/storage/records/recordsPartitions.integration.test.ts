import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeKindPartitions } from '../../../src/storage/records/recordsPartitions.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();

const insertRecords = (kind: string, keys: string[]) =>
  given.database.pool.query(
    `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
     select 'music', $1, k, jsonb_build_object('k', k), md5(k), gen_random_uuid(), gen_random_uuid() from unnest($2::text[]) as k`,
    [kind, keys],
  );

const partitionsOf = async (kind: string) =>
  (await given.database.pool.query<{ part: string; n: number }>(`select tableoid::regclass::text as part, count(*)::int as n from records where kind = $1 group by 1`, [kind])).rows;

describe('makeKindPartitions', () => {
  it('gives a kind with no partition one, moving the rows it had in the default partition, and none twice', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await insertRecords(kind, ['a', 'b', 'c']);
    expect(await partitionsOf(kind)).toEqual([{ part: 'records_default', n: 3 }]);

    expect(await makeKindPartitions(given.database.pool, [kind, kind])).toEqual([kind]);
    expect(await makeKindPartitions(given.database.pool, [kind])).toEqual([]);

    expect(await partitionsOf(kind)).toEqual([{ part: `records_of_${kind}`, n: 3 }]);
    await insertRecords(kind, ['d']);
    expect(await partitionsOf(kind)).toEqual([{ part: `records_of_${kind}`, n: 4 }]);
  });

  it('makes one partition when processes make it at once, each of them ending without an error', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const kind = `k${randomUUID().slice(0, 8)}`;
      const made = await Promise.all(Array.from({ length: 4 }, () => makeKindPartitions(given.database.pool, [kind])));
      expect(made.flat()).toEqual([kind]);
    }
  });
});
