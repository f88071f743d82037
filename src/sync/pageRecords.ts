import type { ResolvedQuery } from '../config/jobs/resolveQuery.js';
import type { Logger } from '../observability/logger.js';
import { RecordShapeError } from '../paging/RecordShapeError.js';
import { serialiseRecords, type SerialisedRecords } from '../storage/records/serialiseRecords.js';

/**
 * A page's selected records, serialised for storing: a record Postgres cannot take fails the
 * page, unless the query keeps such records as dead letters (records.onInvalid: skip); what is
 * not stored as sent is logged once for the page. For synced and replayed pages alike.
 */
export function pageRecords(query: ResolvedQuery, keys: string[], items: Record<string, unknown>[], filtered: number, log: Logger): SerialisedRecords {
  const records = serialiseRecords(keys, items, filtered);
  const first = records.invalid[0];
  if (first && query.records.onInvalid === 'fail') {
    const more = records.invalid.length > 1 ? ` (and ${records.invalid.length - 1} more in this page)` : '';
    throw new RecordShapeError(query.sourceName, `record ${first.index} (key ${JSON.stringify(first.key)}) at data.${query.records.path} cannot be stored: ${first.reason}${more}; set records.onInvalid: skip to keep such records in dead_letters and store the rest`);
  }
  if (records.invalid.length + records.collapsed + records.nulsRemoved > 0) {
    const skipped = records.invalid.map(({ index, key, reason }) => ({ index, key, reason }));
    log.warn({ skipped, collapsed: records.collapsed, nulsRemoved: records.nulsRemoved }, 'page records not stored as sent: skipped, collapsed as duplicate keys, or NULs removed');
  }
  return records;
}
