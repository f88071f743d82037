import { describe, expect, it } from 'vitest';
import type { JobConfig } from '../../src/config/schema.js';
import { scheduleStanding } from '../../src/history/jobSchedules.js';

const nightly = { name: 'nightly', schedule: { cron: '0 2 * * *', timezone: 'UTC' } } as JobConfig;
const at = (iso: string) => new Date(iso);

describe('where a job stands against its schedule', () => {
  it('gives the next firing after now', () => {
    expect(scheduleStanding(nightly, at('2026-11-24T02:00:00Z'), at('2026-11-24T12:00:00Z')).nextAt).toEqual(at('2026-11-25T02:00:00Z'));
  });

  it('has missed nothing when the latest firing due has its tick', () => {
    expect(scheduleStanding(nightly, at('2026-11-24T02:00:00Z'), at('2026-11-24T12:00:00Z')).missedAt).toBeUndefined();
  });

  it('names the firing it missed when the latest scheduled tick is older than the latest firing due', () => {
    expect(scheduleStanding(nightly, at('2026-11-23T02:00:00Z'), at('2026-11-24T12:00:00Z')).missedAt).toEqual(at('2026-11-24T02:00:00Z'));
  });

  it('gives a firing a minute to open its tick before calling it missed', () => {
    expect(scheduleStanding(nightly, at('2026-11-23T02:00:00Z'), at('2026-11-24T02:00:30Z')).missedAt).toBeUndefined();
  });

  it('reads a day of the month and a day of the week as the scheduler does: both must match', () => {
    const firstMonday = { name: 'm', schedule: { cron: '0 3 1-7 * 1', timezone: 'UTC' } } as JobConfig;
    const standing = scheduleStanding(firstMonday, at('2026-11-02T03:00:00Z'), at('2026-11-03T04:00:00Z'));
    expect(standing).toEqual({ nextAt: at('2026-12-07T03:00:00Z'), missedAt: undefined });
  });

  it('reads the schedule in its time zone', () => {
    const berlin = { name: 'b', schedule: { cron: '0 2 * * *', timezone: 'Europe/Berlin' } } as JobConfig;
    expect(scheduleStanding(berlin, undefined, at('2026-11-24T12:00:00Z')).nextAt).toEqual(at('2026-11-25T01:00:00Z'));
  });

  it('has no next firing and misses nothing without a schedule, or before its first scheduled tick', () => {
    expect(scheduleStanding({ name: 'manual' }, undefined, at('2026-11-24T12:00:00Z'))).toEqual({ nextAt: undefined, missedAt: undefined });
    expect(scheduleStanding(nightly, undefined, at('2026-11-24T12:00:00Z')).missedAt).toBeUndefined();
  });
});
