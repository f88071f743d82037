/** Reading Prometheus's text exposition format, as a worker's /metrics answers it. */

/** Sums a metric's samples whose labels include all of `labels`. */
export function metricSample(text: string, name: string, labels: Record<string, string> = {}): number {
  return metricSamples(text, name, labels).reduce((sum, value) => sum + value, 0);
}

/** The values of a metric's samples whose labels include all of `labels`. */
export function metricSamples(text: string, name: string, labels: Record<string, string> = {}): number[] {
  const values: number[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map<string, string>();
    for (const label of (match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) found.set(label[1]!, label[2]!);
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value)) values.push(Number(match[3]));
  }
  return values;
}

/** Series a sample name takes beside its family's: a histogram's buckets, sum and count; a summary's sum and count. */
const FAMILY_SERIES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/**
 * Every metric name the text exports: each family a `# TYPE` line declares (with or without
 * samples yet), a histogram's `_bucket`, `_sum` and `_count` series, and any sample's name.
 */
export function exportedMetricNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const declared = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (declared) {
      names.add(declared[1]!);
      for (const suffix of FAMILY_SERIES[declared[2]!] ?? []) names.add(`${declared[1]!}${suffix}`);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]!);
  }
  return names;
}
