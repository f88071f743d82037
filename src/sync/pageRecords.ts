import { stringifyJson } from '../config/records/exactJson.js';
import type { ResolvedQuery } from '../config/jobs/resolveQuery.js';
import type { Logger } from '../observability/logger.js';
import { RecordShapeError } from '../paging/RecordShapeError.js';
import type { SelectedRecords, UnkeyedRecord } from '../paging/selectRecords.js';
import { serialiseRecords, type InvalidRecord, type SerialisedRecords } from '../storage/records/serialiseRecords.js';

const SKIP_HINT = 'set records.onInvalid: skip to keep such records in dead_letters and store the rest';

/**
 * A page's selected records, serialised for storing: a record with no key, or one Postgres cannot
 * take, fails the page, unless the query keeps such records as dead letters (records.onInvalid:
 * skip); what is not stored as sent is logged once for the page. For synced and replayed pages alike.
 */
export function pageRecords(query: ResolvedQuery, selected: Pick<SelectedRecords, 'keys' | 'items' | 'filtered' | 'unkeyed'>, log: Logger): SerialisedRecords {
  const skip = query.records.onInvalid === 'skip';
  const unkeyed = selected.unkeyed[0];
  if (unkeyed && !skip) throw new RecordShapeError(query.sourceName, `${unkeyed.message}${more(selected.unkeyed)}; ${SKIP_HINT}`);
  const records = serialiseRecords(selected.keys, selected.items, selected.filtered);
  const first = records.invalid[0];
  if (first && !skip) {
    throw new RecordShapeError(query.sourceName, `record ${first.index} (key ${JSON.stringify(first.key)}) at data.${query.records.path} cannot be stored: ${first.reason}${more(records.invalid)}; ${SKIP_HINT}`);
  }
  if (selected.unkeyed.length > 0) records.invalid.push(...selected.unkeyed.map(deadLetterOf));
  if (records.invalid.length + records.collapsed + records.nulsRemoved > 0) {
    const skipped = records.invalid.map(({ index, key, reason }) => ({ index, key, reason }));
    log.warn({ skipped, collapsed: records.collapsed, nulsRemoved: records.nulsRemoved }, 'page records not stored as sent: skipped, collapsed as duplicate keys, or NULs removed');
  }
  return records;
}

function more(invalid: readonly unknown[]): string {
  return invalid.length > 1 ? ` (and ${invalid.length - 1} more in this page)` : '';
}

/** A record with no key, as its dead letter keeps it: an empty key, and its JSON text when it can be written. */
function deadLetterOf(record: UnkeyedRecord): InvalidRecord {
  let raw: string | null;
  try {
    raw = stringifyJson(record.item);
  } catch {
    raw = null;
  }
  return { index: record.index, key: '', reason: record.reason, raw };
}
