import { describe, expect, it } from 'vitest';
import { csvInjectionRows } from './analytics/csvInjectionRows.js';
import { badArgumentRows } from './cli/badArgumentRows.js';
import { commandOutcomeRows } from './cli/commandOutcomeRows.js';
import { bidiRows, controlRows } from './cli/terminalTextRows.js';
import { acceptedConfigRows } from './config/acceptedConfigRows.js';
import { badConfigRows } from './config/badConfigRows.js';
import { echoedSecretRows } from './http/echoedSecretRows.js';
import { hostileAnswerRows } from './http/hostileAnswerRows.js';
import { badRecordRows } from './paging/badRecordRows.js';
import { recordOutcomeRows } from './paging/recordOutcomeRows.js';
import { badRequestRows } from './runtime/badRequestRows.js';
import { opsRequestRows } from './runtime/opsRequestRows.js';

/** The tables of bad inputs, each run by the test beside it. */
const tables: Record<string, readonly { what: string }[]> = {
  configs: badConfigRows,
  acceptedConfigs: acceptedConfigRows,
  commandLines: badArgumentRows,
  commandOutcomes: commandOutcomeRows,
  records: badRecordRows,
  historyRequests: badRequestRows,
  echoedSecrets: echoedSecretRows,
  recordOutcomes: recordOutcomeRows,
  upstreamAnswers: hostileAnswerRows,
  opsRequests: opsRequestRows,
  terminalText: [...controlRows, ...bidiRows],
  csvCells: csvInjectionRows,
};

describe('the tables of bad inputs', () => {
  it('hold at least 200 inputs, each with the refusal it must get', () => {
    const counts = Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.length]));
    const total = Object.values(counts).reduce((sum, rows) => sum + rows, 0);
    expect(total, JSON.stringify(counts)).toBeGreaterThanOrEqual(200);
  });

  it.each(Object.entries(tables))('%s: hold no input twice, by its description', (_name, rows) => {
    const names = rows.map((row) => row.what);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});
