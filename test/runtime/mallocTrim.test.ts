import { describe, expect, it, vi } from 'vitest';
import { collectThroughInspector } from '../../src/runtime/IdleMemoryRelease.js';
import { lazyMallocTrim } from '../../src/runtime/mallocTrim.js';

const MB = 1024 * 1024;
const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime !== undefined;

describe('lazyMallocTrim', () => {
  it.skipIf(!glibc)('gives back the freed memory glibc keeps resident below allocations still in use', async () => {
    // ~80 MB of malloc'd buffers, one in 64 kept: glibc cannot return the freed rest from an arena's top.
    let buffers: Buffer[] | undefined = Array.from({ length: 40_000 }, () => Buffer.allocUnsafeSlow(2000).fill(1));
    const kept = buffers.filter((_, index) => index % 64 === 63);
    buffers = undefined;
    await collectThroughInspector();
    const residentBefore = process.memoryUsage.rss();

    const trim = lazyMallocTrim();

    // V8 may free the buffers' memory on a helper thread just after the collection: trimmed until it has.
    await vi.waitFor(async () => {
      await trim();
      expect(residentBefore - process.memoryUsage.rss()).toBeGreaterThan(40 * MB);
    }, { timeout: 5000 });
    expect(kept).toHaveLength(625);
  });
});
