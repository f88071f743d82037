import { describe, expect, it } from 'vitest';
import { badArgumentRows } from './cli/badArgumentRows.js';
import { badConfigRows } from './config/badConfigRows.js';
import { badRecordRows } from './paging/badRecordRows.js';
import { badRequestRows } from './runtime/badRequestRows.js';

/** The tables of bad inputs, each run by the test beside it: configs, command lines, records and HTTP requests. */
const tables = { configs: badConfigRows.length, commandLines: badArgumentRows.length, records: badRecordRows.length, httpRequests: badRequestRows.length };

describe('the tables of bad inputs', () => {
  it('hold at least 200 inputs, each with the refusal it must get', () => {
    const total = Object.values(tables).reduce((sum, rows) => sum + rows, 0);
    expect(total, JSON.stringify(tables)).toBeGreaterThanOrEqual(200);
  });

  it('hold no input twice, by its description', () => {
    for (const rows of [badConfigRows, badArgumentRows, badRecordRows, badRequestRows]) {
      const names = rows.map((row) => row.what);
      expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    }
  });
});
