import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { parseJson } from '../../src/config/records/exactJson.js';
import { RecordShapeError } from '../../src/paging/RecordShapeError.js';
import { selectRecords } from '../../src/paging/selectRecords.js';
import { pageRecords } from '../../src/sync/pageRecords.js';
import { capturingLogger, queryOf } from '../support/syncFixture.js';
import { badRecordRows, type BadRecordRow } from './badRecordRows.js';

/** The row's page selected and made ready to store, as a sync does, under `onInvalid`. */
function storeRow(row: BadRecordRow, onInvalid: 'fail' | 'skip') {
  const config = parseConfig(
    {
      sources: { music: { baseUrl: 'http://upstream.test', auth: { type: 'none' }, path: '/api' } },
      jobs: [{ name: 'things', source: 'music', records: { path: row.path, key: row.key ?? 'id', kind: 'thing', onInvalid }, queries: [{}] }],
    },
    'test',
    {},
  );
  const query = queryOf(config, 'things');
  return pageRecords(query, selectRecords(parseJson(row.data), query.records, undefined, 'music'), capturingLogger().logger);
}

/** Rows whose page has no records where they are looked for: no record to keep apart, so the page is refused whatever onInvalid says. */
const pageWide = (row: BadRecordRow) => row.message.source.startsWith('no records');

describe('records that cannot be keyed or read', () => {
  it.each(badRecordRows)('$what: refused, naming the record and its key', (row) => {
    const store = () => storeRow(row, 'fail');
    expect(store).toThrow(RecordShapeError);
    expect(store).toThrow(row.message);
  });

  it.each(badRecordRows.filter((row) => !pageWide(row)))('$what: kept alone in dead_letters under onInvalid: skip', (row) => {
    const { invalid } = storeRow(row, 'skip');
    expect(invalid).toHaveLength(1);
    expect(`record ${invalid[0]!.index} at data.${row.path} ${invalid[0]!.reason.replace(/^it /, '')}`).toMatch(row.message);
  });

  it.each(badRecordRows.filter(pageWide))('$what: refused under onInvalid: skip too', (row) => {
    expect(() => storeRow(row, 'skip')).toThrow(row.message);
  });
});
