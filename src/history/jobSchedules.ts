import { Cron } from 'croner';
import type { JobSchedule } from '../config/loading/readOnlySettings.js';

/** Where a job stands against its schedule. */
export interface ScheduleStanding {
  /** The schedule's next firing after now. */
  nextAt: Date | undefined;
  /** The last firing that a tick should exist for by now, and none does. */
  missedAt: Date | undefined;
}

/** How long a firing may take to open its tick before it counts as missed. */
const OPENING_GRACE_MS = 60_000;

/**
 * The job's next firing, and the firing it missed: the latest one due (a minute's grace given)
 * that is later than its latest scheduled tick. A job with no scheduled tick yet has missed
 * nothing that the history can tell.
 */
export function scheduleStanding(job: JobSchedule, lastScheduledFor: Date | undefined, now: Date): ScheduleStanding {
  if (!job.schedule) return { nextAt: undefined, missedAt: undefined };
  // As the scheduler (node-cron) reads it: a day of the month and a day of the week both restricted must both match.
  const cron = new Cron(job.schedule.cron, { timezone: job.schedule.timezone, paused: true, domAndDow: true });
  const nextAt = cron.nextRun(now) ?? undefined;
  const [due] = cron.previousRuns(1, new Date(now.getTime() - OPENING_GRACE_MS));
  const missedAt = lastScheduledFor !== undefined && due !== undefined && due.getTime() > lastScheduledFor.getTime() ? due : undefined;
  return { nextAt, missedAt };
}
