import type { TickState } from '../../src/storage/ticks/tickState.js';

/** A tick of the job `users` as job_ticks holds it, running with 2 of its 5 runs done unless `over` says otherwise. */
export const aTick = (over: Partial<TickState>): TickState => ({
  id: '8d1f2a40-0000-4000-8000-000000000001',
  tickKey: 'manual/users/8d1f2a40-0000-4000-8000-000000000001',
  job: 'users',
  trigger: 'enqueue',
  scheduledFor: null,
  status: 'running',
  runs: { total: 5, done: 2, succeeded: 1, partial: 0, failed: 1, skipped: 0 },
  records: { new: 10, updated: 2, unchanged: 3, skipped: 0 },
  error: null,
  startedAt: new Date('2026-11-24T03:00:00Z'),
  finishedAt: null,
  ...over,
});
