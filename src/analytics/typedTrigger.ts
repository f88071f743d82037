import { createHash } from 'node:crypto';
import type { TransactionClient } from '../storage/database/transaction.js';
import { quoteIdent } from './columnSql.js';
import { deleteOldRowsSql, insertTypedRowsSql, type TypedTable } from './typedTableSql.js';

/** What a trigger on `records` does to the typed tables, and for which event. */
interface TypedTrigger {
  event: 'insert' | 'update' | 'truncate';
  /** Its function's name, in the typed schema. */
  fn: string;
  /** REFERENCING: Postgres takes transition tables only on a trigger of one event. */
  referencing: string;
  body: (tables: readonly TypedTable[]) => string;
}

const plpgsql = (statements: string[]): string => `\nbegin\n${statements.map((statement) => `  ${statement};`).join('\n')}\n  return null;\nend\n`;

/**
 * The statements each trigger runs, a statement a typed kind at the end of each statement on
 * `records`: a page's thousand records cost one insert a typed kind, not a function call a row.
 * A typed row is keyed by its record's change_seq, which every insert and update draws anew: an
 * insert adds the live rows, an update deletes its rows' old versions by their old change_seq and
 * adds the live ones (a record marked deleted, or moved to another key, leaves none behind).
 */
const TRIGGERS: TypedTrigger[] = [
  { event: 'insert', fn: 'feedsync_typed_inserts', referencing: 'referencing new table as new_rows', body: (tables) => plpgsql(tables.map((table) => insertTypedRowsSql(table, 'new_rows'))) },
  {
    event: 'update',
    fn: 'feedsync_typed_updates',
    referencing: 'referencing old table as old_rows new table as new_rows',
    body: (tables) => plpgsql(tables.flatMap((table) => [deleteOldRowsSql(table, 'old_rows'), insertTypedRowsSql(table, 'new_rows')])),
  },
  { event: 'truncate', fn: 'feedsync_typed_truncates', referencing: '', body: (tables) => plpgsql([`truncate ${tables.map((table) => table.qualified).join(', ')}`]) },
];

/** A trigger's name on records: one set a typed schema. */
function triggerName(schema: string, event: TypedTrigger['event']): string {
  const tag = schema.length <= 40 ? schema : createHash('md5').update(schema).digest('hex').slice(0, 16);
  return `feedsync_${tag}_${event}s`;
}

/**
 * Keeps the typed tables in step with `records`: statement triggers after every insert, update
 * and truncate of it, whichever partition, query or write mode (merge, full refresh, append,
 * replay, rekey), in the writing transaction. Records are never deleted (a deletion is
 * `deleted_at`). Without typed tables there is no trigger, and writes pay nothing for them. A
 * function is replaced only when its body changed, and the triggers made only when missing:
 * making them waits for the writers of `records`.
 */
export async function applyTypedTrigger(client: TransactionClient, schema: string, tables: readonly TypedTable[]): Promise<void> {
  const { rows: existing } = await client.query<{ name: string }>(`select tgname as name from pg_trigger where tgrelid = 'records'::regclass and not tgisinternal`);
  const names = new Set(existing.map((row) => row.name));
  for (const trigger of TRIGGERS) {
    const name = triggerName(schema, trigger.event);
    const fn = `${quoteIdent(schema)}.${trigger.fn}`;
    if (tables.length === 0) {
      await client.query(`drop trigger if exists ${quoteIdent(name)} on records`);
      await client.query(`drop function if exists ${fn}()`);
      continue;
    }
    const body = trigger.body(tables);
    const { rows } = await client.query<{ body: string }>(`select prosrc as body from pg_proc where proname = $1 and pronamespace = (select oid from pg_namespace where nspname = $2)`, [trigger.fn, schema]);
    if (rows[0]?.body !== body) await client.query(`create or replace function ${fn}() returns trigger language plpgsql as $typed$${body}$typed$`);
    if (!names.has(name)) await client.query(`create trigger ${quoteIdent(name)} after ${trigger.event} on records ${trigger.referencing} for each statement execute function ${fn}()`);
  }
}
