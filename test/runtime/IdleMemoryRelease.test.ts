import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { IdleMemoryRelease, type IdleMemoryReleaseOptions, type YoungGeneration } from '../../src/runtime/IdleMemoryRelease.js';
import { capturingLogger } from '../support/syncFixture.js';

const MB = 1024 * 1024;
/** Longer than any test: looks are taken by the test, never by the timer. */
const NEVER_MS = 3_600_000;

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
}

/**
 * Allocates as a sync does: pages of small objects, the last few kept alive across scavenges, so
 * V8 grows new space; until it has grown past 8 MB, or for `pages` pages when given.
 */
async function growNewSpace(pages?: number): Promise<void> {
  let kept: object[][] = [];
  for (let page = 0; pages === undefined ? page < 200 && newSpaceBytes() <= 8 * MB : page < pages; page++) {
    kept.push(Array.from({ length: 1000 }, (_, i) => ({ key: `record-${page}-${i}`, value: i, pair: [i, i + 1] })));
    if (kept.length > 3) kept.shift();
    await new Promise((resolve) => setImmediate(resolve));
  }
  kept = [];
}

/** Readings played back one per read; the last one repeats. */
function readings(...young: YoungGeneration[]): () => YoungGeneration {
  let next = 0;
  return () => young[Math.min(next++, young.length - 1)]!;
}

const grownAndIdle: YoungGeneration = { capacityBytes: 32 * MB, usedBytes: 1000, collections: 5 };

function release(options: Partial<IdleMemoryReleaseOptions> & Pick<IdleMemoryReleaseOptions, 'collect'>): IdleMemoryRelease {
  return new IdleMemoryRelease({ logger: capturingLogger().logger, isBusy: () => false, intervalMs: 1000, ...options });
}

const youngNeverGrown: YoungGeneration = { ...grownAndIdle, capacityBytes: MB };

describe('IdleMemoryRelease', () => {
  it('gives V8 its grown young generation back once V8 collected nothing and the process allocated almost nothing between two looks', async () => {
    await growNewSpace();
    expect(newSpaceBytes()).toBeGreaterThan(8 * MB);
    const idleMemory = new IdleMemoryRelease({ logger: capturingLogger().logger, isBusy: () => false, intervalMs: NEVER_MS });
    idleMemory.start();
    try {
      await idleMemory.look();
      expect(await idleMemory.look()).toBe(true);
      expect(newSpaceBytes()).toBeLessThanOrEqual(MB);
    } finally {
      idleMemory.stop();
    }
  });

  it('does not collect a process that V8 collected between looks, as it does under a sync', async () => {
    await growNewSpace();
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ intervalMs: NEVER_MS, collect });
    idleMemory.start();
    try {
      await idleMemory.look();
      await growNewSpace(200);
      expect(await idleMemory.look()).toBe(false);
      expect(collect).not.toHaveBeenCalled();
    } finally {
      idleMemory.stop();
    }
  });

  it('does not collect while a run is in progress, however idle the heap looks', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ isBusy: () => true, readYoungGeneration: readings(grownAndIdle), collect });
    await idleMemory.look();
    expect(await idleMemory.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('does not collect while the process allocates faster than V8 calls a low rate (1,000 bytes/ms) between looks', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ readYoungGeneration: readings({ ...grownAndIdle, usedBytes: 2 * MB }, { ...grownAndIdle, usedBytes: 9 * MB }), collect });
    await idleMemory.look();
    expect(await idleMemory.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('takes a collection between looks for activity, however little new space use grew', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ readYoungGeneration: readings(grownAndIdle, { ...grownAndIdle, usedBytes: 5096, collections: 6 }), collect });
    await idleMemory.look();
    expect(await idleMemory.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('takes new space use lower than at the last look (a collection not reported yet) for activity', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ readYoungGeneration: readings({ ...grownAndIdle, usedBytes: 9 * MB }, { ...grownAndIdle, usedBytes: MB }), collect });
    await idleMemory.look();
    expect(await idleMemory.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('leaves a young generation that never grew alone, however idle', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ readYoungGeneration: readings(youngNeverGrown), collect });
    await idleMemory.look();
    expect(await idleMemory.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('does not repeat a collection that left new space as large as it was', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ readYoungGeneration: readings(grownAndIdle), collect });
    await idleMemory.look();
    expect(await idleMemory.look()).toBe(true);
    for (let look = 0; look < 3; look++) await idleMemory.look();
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('compares nothing across a stop and a start: the first look after start is a base only', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const idleMemory = release({ intervalMs: NEVER_MS, readYoungGeneration: readings(grownAndIdle), collect });
    await idleMemory.look();
    idleMemory.stop();
    idleMemory.start();
    try {
      expect(await idleMemory.look()).toBe(false);
      expect(await idleMemory.look()).toBe(true);
    } finally {
      idleMemory.stop();
    }
  });

  it('warns once and collects no more after a collection fails', async () => {
    const { logger, lines } = capturingLogger();
    const collect = vi.fn(() => Promise.reject(new Error('inspector unavailable')));
    const idleMemory = release({ logger, readYoungGeneration: readings(grownAndIdle), collect });
    await idleMemory.look();
    expect(await idleMemory.look()).toBe(false);
    for (let look = 0; look < 3; look++) expect(await idleMemory.look()).toBe(false);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(lines.filter((line) => line.includes('could not release idle memory') && line.includes('inspector unavailable'))).toHaveLength(1);
  });
});
