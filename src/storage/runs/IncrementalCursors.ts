import type pg from 'pg';
import { readIncrementalCursor } from './statements/readIncrementalCursor.js';

/** Where incremental queries start: the highest value stored by each job query's last successful run (written by RunFinishes). */
export class IncrementalCursors {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  async read(job: string, queryKey: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ value: string }>(readIncrementalCursor.with({ job, queryKey }));
    return rows[0]?.value;
  }
}
