import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) spent by each party to a measurement. */
export interface CpuSeconds {
  worker: number;
  postgres: number;
  redis: number;
  simulator: number;
}

const TICKS_PER_S = 100;

/**
 * utime + stime of /proc/<pid>/stat in seconds, and cutime + cstime: what its children that exited
 * and were waited for spent (a backend that exits leaves its time to the postmaster there).
 */
function cpuSecondsOf(pid: number): { comm: string; seconds: number; reapedSeconds: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm may hold spaces and parentheses: the fields after it start past the last ')'.
  const close = stat.lastIndexOf(')');
  const comm = stat.slice(stat.indexOf('(') + 1, close);
  const fields = stat.slice(close + 2).split(' ');
  return { comm, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S, reapedSeconds: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_S };
}

/**
 * Where the CPU went: the worker and simulator by pid, Postgres and Redis as every process of that
 * name on the machine (the bench's own servers are the only ones it talks to), with their exited
 * children's time: a backend that exits between two snapshots (a connection closed) is still counted.
 */
export function cpuSnapshot(pids: { worker: number; simulator: number }): CpuSeconds {
  const snapshot: CpuSeconds = { worker: cpuSecondsOf(pids.worker)?.seconds ?? 0, simulator: cpuSecondsOf(pids.simulator)?.seconds ?? 0, postgres: 0, redis: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const process = cpuSecondsOf(Number(entry));
    if (process?.comm === 'postgres') snapshot.postgres += process.seconds + process.reapedSeconds;
    else if (process?.comm === 'redis-server') snapshot.redis += process.seconds + process.reapedSeconds;
  }
  return snapshot;
}

export function cpuBetween(before: CpuSeconds, after: CpuSeconds): CpuSeconds {
  const round = (value: number): number => Math.round(value * 100) / 100;
  return {
    worker: round(after.worker - before.worker),
    postgres: round(after.postgres - before.postgres),
    redis: round(after.redis - before.redis),
    simulator: round(after.simulator - before.simulator),
  };
}
