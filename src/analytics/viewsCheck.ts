import type pg from 'pg';
import type { KindConfig } from '../config/analytics/kindsSchema.js';
import { columnSql, quoteLiteral } from './columnSql.js';

/** A column's values that did not cast to its type (NULL in the view), among the kind's live records. */
export interface ColumnCheck {
  kind: string;
  column: string;
  type: string;
  /** Records with a value at the column's path. */
  present: number;
  /** Of those, how many do not cast (NULL in the view). */
  uncast: number;
}

/** Counts, per declared column, the stored values its view shows as NULL because they do not cast: one scan of each kind's records. */
export async function checkKindViews(pool: Pick<pg.Pool, 'query'>, kinds: Readonly<Record<string, KindConfig>>): Promise<ColumnCheck[]> {
  const checks: ColumnCheck[] = [];
  for (const [kind, config] of Object.entries(kinds)) {
    const columns = Object.entries(config.columns);
    if (columns.length === 0) continue;
    const counts = columns.flatMap(([, column], index) => {
      const { text, typed } = columnSql(column);
      return [`count(${text}) as p${index}`, `count(*) filter (where ${text} is not null and ${typed} is null) as u${index}`];
    });
    const { rows } = await pool.query<Record<string, string>>(`select ${counts.join(', ')} from records where kind = ${quoteLiteral(kind)} and deleted_at is null`);
    const row = rows[0]!;
    columns.forEach(([name, column], index) => checks.push({ kind, column: name, type: column.type, present: Number(row[`p${index}`]), uncast: Number(row[`u${index}`]) }));
  }
  return checks;
}
