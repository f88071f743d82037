import type pg from 'pg';
import { IN_PROCESS_TICK } from '../../src/storage/ticks/statements/inProcessTickLock.js';

/** The backend of the pool's database that holds the tick's in-process lock (`feedsync run`'s session lock), if one does. */
export async function inProcessLockHolder(pool: Pick<pg.Pool, 'query'>, tickId: string): Promise<number | undefined> {
  const { rows } = await pool.query<{ pid: number }>(
    `select l.pid from pg_locks l join pg_database d on d.oid = l.database
      where d.datname = current_database() and l.locktype = 'advisory' and l.granted and l.objsubid = 2
        and l.classid::bigint = ${IN_PROCESS_TICK} and l.objid::bigint = (hashtext($1)::bigint & 4294967295)`,
    [tickId],
  );
  return rows[0]?.pid;
}
