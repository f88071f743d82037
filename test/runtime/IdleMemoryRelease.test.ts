import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { IdleMemoryRelease, type YoungGeneration } from '../../src/runtime/IdleMemoryRelease.js';
import { capturingLogger } from '../support/syncFixture.js';

const MB = 1024 * 1024;

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

/** Readings played back one per look. */
function readings(...young: YoungGeneration[]): () => YoungGeneration {
  let next = 0;
  return () => young[Math.min(next++, young.length - 1)]!;
}

describe('IdleMemoryRelease', () => {
  it('gives V8 its grown young generation back once the process allocates almost nothing between two looks', async () => {
    await growNewSpace();
    expect(newSpaceBytes()).toBeGreaterThan(8 * MB);
    const release = new IdleMemoryRelease({ logger: capturingLogger().logger });
    await release.look();
    expect(await release.look()).toBe(true);
    expect(newSpaceBytes()).toBeLessThanOrEqual(MB);
  });

  it('does not collect a process that V8 collected between looks, as it does under a sync', async () => {
    await growNewSpace();
    const collect = vi.fn(() => Promise.resolve());
    const release = new IdleMemoryRelease({ logger: capturingLogger().logger, intervalMs: 3_600_000, collect });
    release.start();
    try {
      await release.look();
      await growNewSpace(200);
      expect(await release.look()).toBe(false);
      expect(collect).not.toHaveBeenCalled();
    } finally {
      release.stop();
    }
  });

  it('does not collect while the process allocates faster than V8 calls a low rate (1,000 bytes/ms) between looks', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const release = new IdleMemoryRelease({
      logger: capturingLogger().logger,
      intervalMs: 1000,
      readYoungGeneration: readings({ capacityBytes: 32 * MB, usedBytes: 2 * MB, collections: 5 }, { capacityBytes: 32 * MB, usedBytes: 9 * MB, collections: 5 }),
      collect,
    });
    await release.look();
    expect(await release.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('takes a collection between looks for activity, however little new space use grew', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const release = new IdleMemoryRelease({
      logger: capturingLogger().logger,
      readYoungGeneration: readings({ capacityBytes: 32 * MB, usedBytes: 1 * MB, collections: 5 }, { capacityBytes: 32 * MB, usedBytes: 1 * MB + 4096, collections: 6 }),
      collect,
    });
    await release.look();
    expect(await release.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('leaves a young generation that never grew alone, however idle', async () => {
    const collect = vi.fn(() => Promise.resolve());
    const release = new IdleMemoryRelease({ logger: capturingLogger().logger, readYoungGeneration: readings({ capacityBytes: MB, usedBytes: 1000, collections: 5 }), collect });
    await release.look();
    expect(await release.look()).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });

  it('warns once and tries no more after a collection fails', async () => {
    const { logger, lines } = capturingLogger();
    const collect = vi.fn(() => Promise.reject(new Error('inspector unavailable')));
    const release = new IdleMemoryRelease({ logger, readYoungGeneration: readings({ capacityBytes: 32 * MB, usedBytes: 1000, collections: 5 }), collect });
    await release.look();
    expect(await release.look()).toBe(false);
    expect(await release.look()).toBe(false);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(lines.filter((line) => line.includes('could not release idle memory') && line.includes('inspector unavailable'))).toHaveLength(1);
  });
});
