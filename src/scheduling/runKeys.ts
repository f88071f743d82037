/** The run key of a scheduled tick: one run per (job, query, scheduled time), whoever fires it. */
export function tickRunKey(job: string, queryIndex: number, scheduledFor: Date): string {
  return `tick/${job}/${queryIndex}/${scheduledFor.getTime()}`;
}
