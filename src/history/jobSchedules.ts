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

/** A schedule as the scheduler (node-cron) reads it: a day of the month and a day of the week both restricted must both match. */
function cronOf(schedule: NonNullable<JobSchedule['schedule']>): Cron {
  return new Cron(schedule.cron, { timezone: schedule.timezone, paused: true, domAndDow: true });
}

/** The latest firing of a schedule that should have opened its tick by now, a minute's grace given. */
export function dueFiring(schedule: NonNullable<JobSchedule['schedule']>, now: Date): Date | undefined {
  return cronOf(schedule).previousRuns(1, new Date(now.getTime() - OPENING_GRACE_MS))[0];
}

/**
 * The job's next firing, and the firing it missed: the latest one due (see dueFiring) that is
 * later than its latest scheduled tick. A job with no scheduled tick yet has missed nothing that
 * the history can tell.
 */
export function scheduleStanding(job: JobSchedule, lastScheduledFor: Date | undefined, now: Date): ScheduleStanding {
  if (!job.schedule) return { nextAt: undefined, missedAt: undefined };
  const nextAt = cronOf(job.schedule).nextRun(now) ?? undefined;
  const due = dueFiring(job.schedule, now);
  const missedAt = lastScheduledFor !== undefined && due !== undefined && due.getTime() > lastScheduledFor.getTime() ? due : undefined;
  return { nextAt, missedAt };
}
