import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NamedStatement } from '../../../src/storage/database/NamedStatement.js';
import { textArrayBytes } from '../../../src/storage/database/textArrayBytes.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** What Postgres reads from the bytes, as elements and their count. */
async function readBack(values: (string | null)[]): Promise<{ elements: (string | null)[] | null; count: number }> {
  const statement = new NamedStatement<{ values: (string | null)[] }>('read_text_array', 'select :values::text[] as elements, cardinality(:values::text[]) as count');
  const { rows } = await database.pool.query<{ elements: (string | null)[] | null; count: number }>(statement.with({ values }));
  return rows[0]!;
}

describe('textArrayBytes', () => {
  it('is read by Postgres as the same elements, whatever an array literal would have to quote or escape', async () => {
    const values = ['0xab', '', 'a,b', '{braces}', '"quoted"', 'back\\slash', 'new\nline', ' spaced ', 'NULL', 'café', '🎉 emoji'];
    expect(await readBack(values)).toEqual({ elements: values, count: values.length });
  });

  it('carries nulls, and undefined as pg would, as nulls', async () => {
    expect(await readBack(['a', null, 'b', undefined as unknown as null])).toEqual({ elements: ['a', null, 'b', null], count: 4 });
  });

  it('carries an empty array as one with no elements', async () => {
    expect(await readBack([])).toEqual({ elements: [], count: 0 });
  });

  it('writes the header of a one-dimensional text array and each element as its UTF-8 bytes', () => {
    const bytes = textArrayBytes(['é', null]);
    // dimensions 1, has a null, element type 25 (text), length 2, lower bound 1; 'é' in 2 bytes; null as -1.
    expect([...Array(5).keys()].map((at) => bytes.readInt32BE(at * 4))).toEqual([1, 1, 25, 2, 1]);
    expect(bytes.readInt32BE(20)).toBe(2);
    expect(bytes.subarray(24, 26).toString('utf8')).toBe('é');
    expect(bytes.readInt32BE(26)).toBe(-1);
    expect(bytes.length).toBe(30);
  });
});
