import { describe, expect, it } from 'vitest';
import type { RecordChange } from '../../src/analytics/ChangeFeed.js';
import { CHANGE_FORMATS } from '../../src/analytics/changeFormats.js';

const change = (key: string, payload = '{}'): RecordChange => ({ changeSeq: '7', op: 'upsert', source: 'music', key, changedAt: new Date('2026-01-01T00:00:00Z'), deletedAt: null, payload });
/** The key's cell of a change's CSV line. */
const keyCell = (key: string) => CHANGE_FORMATS.csv!.line(change(key)).split(',').slice(3, -3).join(',');

/** Cells a spreadsheet would run as a formula (CSV injection), as a record's key: what the export writes. */
const csvInjectionRows: { what: string; key: string; cell: string }[] = [
  { what: 'a formula', key: '=HYPERLINK("http://evil","x")', cell: `"'=HYPERLINK(""http://evil"",""x"")"` },
  { what: 'a sum', key: '=1+2', cell: "'=1+2" },
  { what: 'a leading plus', key: '+1+cmd|/C calc', cell: "'+1+cmd|/C calc" },
  { what: 'a leading minus', key: '-2+3', cell: "'-2+3" },
  { what: 'a leading at sign', key: '@SUM(A1:A2)', cell: "'@SUM(A1:A2)" },
  { what: 'a leading tab', key: '\t=1', cell: "'\t=1" },
  { what: 'a leading carriage return', key: '\r=1', cell: `"'\r=1"` },
  { what: 'a formula with a comma', key: '=A1,B1', cell: `"'=A1,B1"` },
];

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
