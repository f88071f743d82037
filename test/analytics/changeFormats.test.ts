import { describe, expect, it } from 'vitest';
import type { RecordChange } from '../../src/analytics/changeFeed.js';
import { CHANGE_FORMATS } from '../../src/analytics/changeFormats.js';
import { csvInjectionRows } from './csvInjectionRows.js';

const change = (key: string, payload = '{}'): RecordChange => ({ changeSeq: '7', op: 'upsert', source: 'music', key, changedAt: new Date('2026-01-01T00:00:00Z'), deletedAt: null, payload });
/** The key's cell of a change's CSV line. */
const keyCell = (key: string) => CHANGE_FORMATS.csv!.line(change(key)).split(',').slice(3, -3).join(',');

describe('CSV export', () => {
  it.each(csvInjectionRows)('neutralises a cell starting with $what by a leading quote', (row) => {
    expect(keyCell(row.key)).toBe(row.cell);
  });

  it('leaves a cell a spreadsheet reads as text as it is', () => {
    expect(keyCell('a=b')).toBe('a=b');
  });

  it('neutralises a payload that is a JSON string starting with =, as a whole quoted cell', () => {
    expect(CHANGE_FORMATS.csv!.line(change('k', '"=1"'))).toContain(',"""=1"""\n');
  });
});
