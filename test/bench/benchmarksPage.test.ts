import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { RESULTS_FILE, resultsBlock } from './benchmarksPage.js';

describe('docs/benchmarks.md', () => {
  it('shows the worker hosts runs/s and their ratios where results.json has them', async () => {
    const results = JSON.parse(await readFile(RESULTS_FILE, 'utf8')) as Parameters<typeof resultsBlock>[0];
    const hosts = { hostsRunsPerS1: 20.5, hostsRunsPerS2: 39.9, hostsRunsPerS4: 70.1, hostsScaling2: 1.946, hostsScaling4: 3.42 };
    expect(resultsBlock({ ...results, figures: { ...results.figures, ...hosts } })).toContain('20.5 runs/s on one, 39.9 on two (×1.946), 70.1 on four (×3.42)');
  });
});
