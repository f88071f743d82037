import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/config/records/exactJson.js';
import { recordSelectorSchema } from '../../src/config/schema.js';
import { RecordShapeError } from '../../src/paging/RecordShapeError.js';
import { selectRecords } from '../../src/paging/selectRecords.js';
import { badRecordRows } from './badRecordRows.js';

describe('records that cannot be keyed or read', () => {
  it.each(badRecordRows)('$what: refused, naming the record and its key', (row) => {
    const selector = recordSelectorSchema.parse({ path: row.path, key: row.key ?? 'id', kind: 'thing' });
    const select = () => selectRecords(parseJson(row.data), selector, undefined, 'music');
    expect(select).toThrow(RecordShapeError);
    expect(select).toThrow(row.message);
  });
});
