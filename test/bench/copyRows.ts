import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** COPY text format: backslash, tab, newline and carriage return escaped. */
function copyField(value: string): string {
  return /[\\\t\n\r]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : value;
}

/** COPY … FROM STDIN (text format) of rows given column by column, into `target` (`table (column, …)`). */
export async function copyRows(client: pg.Client, target: string, columns: readonly (readonly string[])[]): Promise<void> {
  let text = '';
  for (let row = 0; row < columns[0]!.length; row++) text += `${columns.map((column) => copyField(column[row]!)).join('\t')}\n`;
  await pipeline(Readable.from([Buffer.from(text)]), client.query(copyFrom(`copy ${target} from stdin`)));
}

/** `work` in one transaction, rolled back if it throws (its error, not the rollback's, is the one thrown). */
export async function inTransaction(client: pg.Client, work: () => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await work();
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}
