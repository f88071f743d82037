import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS_PAGE, pageWithResults, RESULTS_FILE } from './benchmarksPage.js';

describe('docs/benchmarks.md', () => {
  it("shows the committed results.json as npm run bench writes it (run `npm run bench` to renew both)", async () => {
    const page = await readFile(BENCHMARKS_PAGE, 'utf8');
    const results = JSON.parse(await readFile(RESULTS_FILE, 'utf8')) as Parameters<typeof pageWithResults>[1];
    expect(page).toBe(pageWithResults(page, results));
  });
});
