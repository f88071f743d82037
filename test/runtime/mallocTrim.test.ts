import { describe, expect, it } from 'vitest';
import { collectThroughInspector } from '../../src/runtime/IdleMemoryRelease.js';
import { lazyMallocTrim } from '../../src/runtime/mallocTrim.js';

const MB = 1024 * 1024;

describe('lazyMallocTrim', () => {
  it('gives back the freed memory glibc keeps resident below allocations still in use', async () => {
    // ~80 MB of malloc'd buffers, one in 64 kept: glibc cannot return the freed rest from an arena's top.
    let buffers: Buffer[] | undefined = Array.from({ length: 40_000 }, () => Buffer.allocUnsafeSlow(2000).fill(1));
    const kept = buffers.filter((_, index) => index % 64 === 63);
    buffers = undefined;
    await collectThroughInspector();
    const residentBefore = process.memoryUsage.rss();

    await lazyMallocTrim()();

    expect(residentBefore - process.memoryUsage.rss()).toBeGreaterThan(40 * MB);
    expect(kept).toHaveLength(625);
  });
});
