import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { refuseDeepBody, readResponse } from '../../src/http/envelope.js';
import { responseShapeOf } from '../../src/http/responses/responsePresets.js';
import { UpstreamError } from '../../src/http/UpstreamError.js';
import { selectRecords } from '../../src/paging/selectRecords.js';
import { pageRecords } from '../../src/sync/pageRecords.js';
import { capturingLogger, queryOf } from '../support/syncFixture.js';
import { recordOutcomeRows, type RecordOutcomeRow } from './recordOutcomeRows.js';

const PAGE = 'http://upstream.test/api?page=7';

/** What comes of the row's page, read as SourceClient and syncQuery read one: refused, or stored with what was dead-lettered. */
function outcomeOf(row: RecordOutcomeRow): string {
  const config = parseConfig(
    {
      sources: { music: { baseUrl: 'http://upstream.test', auth: { type: 'none' }, path: '/api' } },
      jobs: [{ name: 'items', source: 'music', records: { path: 'items', kind: 'item', key: row.key ?? 'id', onInvalid: row.onInvalid }, queries: [{ q: 'a' }] }],
    },
    'test',
    {},
  );
  const query = queryOf(config, 'items');
  const raw = row.body ?? `{"status":"success","data":{"items":[${row.records!.join(',')}]},"message":""}`;
  try {
    refuseDeepBody(raw, 'music', PAGE, 200);
    const { envelope } = readResponse(raw, responseShapeOf(query.source.response, query.source.errors), 'music', 200);
    const stored = pageRecords(query, selectRecords(envelope.data, query.records, query.q, 'music'), capturingLogger().logger);
    return [`stored ${stored.keys.join(', ')}`, ...stored.invalid.map(({ index, key, reason }) => `dead-lettered ${index} (key ${JSON.stringify(key)}): ${reason}`)].join('; ');
  } catch (error) {
    return `refused (${error instanceof UpstreamError ? error.kind : (error as Error).name}): ${(error as Error).message}`;
  }
}

describe('pages holding a record Postgres could not take as it is', () => {
  it.each(recordOutcomeRows)('$what', (row) => {
    expect(outcomeOf(row)).toMatch(row.outcome);
  });
});
