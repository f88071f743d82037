import type { RecordChange } from './changeFeed.js';

/** How `feedsync export` writes changes: a header, a line per change, and a last line with the position reached. */
export interface ChangeFormat {
  header: string | undefined;
  line(change: RecordChange): string;
  /** The last change_seq read (the reader's next `--since`), written after the last change. */
  trailer(lastChangeSeq: string): string;
}

const CSV_COLUMNS = ['change_seq', 'op', 'source', 'key', 'changed_at', 'deleted_at', 'payload'];

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. A field that
 * a spreadsheet would take for a formula (starting with =, +, -, @, a tab or a carriage return:
 * OWASP's CSV injection) gets a leading `'`, which spreadsheets show as text.
 */
function csvField(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/** The payload goes in as stored JSON text, not re-encoded, so its numbers keep every digit. */
const jsonl: ChangeFormat = {
  header: undefined,
  line: (change) =>
    `{"change_seq":${change.changeSeq},"op":"${change.op}","source":${JSON.stringify(change.source)},"key":${JSON.stringify(change.key)},"changed_at":"${change.changedAt.toISOString()}","deleted_at":${change.deletedAt ? `"${change.deletedAt.toISOString()}"` : 'null'},"payload":${change.payload}}\n`,
  trailer: (last) => `{"last_change_seq":${last}}\n`,
};

const csv: ChangeFormat = {
  header: `${CSV_COLUMNS.join(',')}\n`,
  line: (change) =>
    `${[change.changeSeq, change.op, change.source, change.key, change.changedAt.toISOString(), change.deletedAt?.toISOString() ?? '', change.payload].map(csvField).join(',')}\n`,
  trailer: (last) => `# last_change_seq ${last}\n`,
};

/** The formats by name: a new one is one entry. */
export const CHANGE_FORMATS: Readonly<Record<string, ChangeFormat>> = { jsonl, csv };
