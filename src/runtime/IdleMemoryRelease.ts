import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import type { Logger } from '../observability/logger.js';

/** The young generation as V8 reports it: its reserved size and the bytes allocated in it since its last collection. */
export interface YoungGeneration {
  capacityBytes: number;
  usedBytes: number;
  /** Collections of any kind seen so far: one between two looks means the process allocated more than a look can tell. */
  collections: number;
}

export interface IdleMemoryReleaseOptions {
  logger: Logger;
  /** Whether work is in progress (a run): a busy process is never idle, however little it allocated between two looks. */
  isBusy: () => boolean;
  /** How often the process is looked at; two looks in a row with little allocation between them make it idle (default 10 s). */
  intervalMs?: number;
  /** Reads the young generation (default: V8's new space, and the collections seen since start()). A seam for tests. */
  readYoungGeneration?: () => YoungGeneration;
  /** Runs a full, memory-reducing collection (default: V8's, through the in-process inspector). A seam for tests. */
  collect?: () => Promise<void>;
}

/** The young generation's size when the process starts: V8 grows it under load. */
const STARTING_CAPACITY_BYTES = 1024 * 1024;
/** Allocation below this rate between two looks is idle: V8's own bound for a low allocation rate. */
const IDLE_BYTES_PER_MS = 1000;
const DEFAULT_INTERVAL_MS = 10_000;

/**
 * Gives back the young generation a worker's runs grew, once it is idle. Under a sync V8 grows new
 * space and shrinks it only in a memory-reducing collection, which its memory reducer starts only
 * after an old-generation collection: a worker whose runs never needed one would keep that space,
 * unused, between runs for good. When no run is in progress and, between two looks, V8 collected
 * nothing and the process allocated almost nothing, this asks V8 for the collection a low-memory
 * notification makes, if new space has grown since the last one. What the C allocator keeps of
 * freed memory is left to it: giving that back (glibc's malloc_trim) would take a native binding.
 */
export class IdleMemoryRelease {
  private timer: NodeJS.Timeout | undefined;
  private last: YoungGeneration | undefined;
  /** New space's size after the last release (at first, its size at start): only growth past it is given back, so a collection that cannot shrink it is not repeated. */
  private releasedCapacityBytes = STARTING_CAPACITY_BYTES;
  private collectionsSeen = 0;
  private readonly collectionObserver = new PerformanceObserver((entries) => {
    this.collectionsSeen += entries.getEntries().length;
  });
  private releasing = false;
  /** Set once a collection failed: it would fail again, so none is tried. */
  private collectUnavailable = false;
  private readonly readYoungGeneration: () => YoungGeneration;
  private readonly collect: () => Promise<void>;
  private readonly intervalMs: number;

  constructor(private readonly options: IdleMemoryReleaseOptions) {
    this.readYoungGeneration = options.readYoungGeneration ?? (() => ({ ...readNewSpace(), collections: this.collectionsSeen }));
    this.collect = options.collect ?? collectThroughInspector;
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  }

  start(): void {
    if (this.timer) return;
    this.collectionObserver.observe({ entryTypes: ['gc'] });
    this.timer = setInterval(() => void this.look(), this.intervalMs);
    // Never what keeps a process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    // Collections not yet reported are dropped with the observer: a reading from before is no base.
    this.collectionObserver.disconnect();
    this.last = undefined;
  }

  /** One look: collects if new space has grown and the process was idle since the last look. Resolves true if it collected. */
  async look(): Promise<boolean> {
    if (this.releasing) return false;
    const now = this.readYoungGeneration();
    const before = this.last;
    this.last = now;
    // V8 may shrink new space itself (its memory reducer): growth past that size is new again.
    this.releasedCapacityBytes = Math.min(this.releasedCapacityBytes, now.capacityBytes);
    if (this.collectUnavailable || now.capacityBytes <= this.releasedCapacityBytes) return false;
    if (before === undefined || this.options.isBusy() || !this.idleBetween(before, now)) return false;
    this.releasing = true;
    try {
      if (!(await this.collectOnce())) return false;
      // Its own collection is reported later: the next look only starts a new comparison.
      this.last = undefined;
      this.releasedCapacityBytes = this.readYoungGeneration().capacityBytes;
      this.options.logger.debug({ newSpaceBytes: now.capacityBytes, afterBytes: this.releasedCapacityBytes }, 'idle: gave memory back');
      return true;
    } finally {
      this.releasing = false;
    }
  }

  /** Whether V8 collected nothing between the two looks and the process allocated almost nothing. */
  private idleBetween(before: YoungGeneration, now: YoungGeneration): boolean {
    // A collection in between (or one not reported yet, which left new space's use lower) hides how much was allocated.
    const grown = now.usedBytes - before.usedBytes;
    return now.collections === before.collections && grown >= 0 && grown < IDLE_BYTES_PER_MS * this.intervalMs;
  }

  /** Collects; a failure (a Node without the inspector) is warned of once, and no collection is tried again. */
  private async collectOnce(): Promise<boolean> {
    try {
      await this.collect();
      return true;
    } catch (error) {
      this.collectUnavailable = true;
      this.options.logger.warn({ err: { message: (error as Error).message } }, 'could not release idle memory; no further attempts');
      return false;
    }
  }
}

function readNewSpace(): Omit<YoungGeneration, 'collections'> {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return { capacityBytes: space?.space_size ?? 0, usedBytes: space?.space_used_size ?? 0 };
}

/** HeapProfiler.collectGarbage: a full collection that also shrinks new space. The session is in-process; no port is opened. */
export async function collectThroughInspector(): Promise<void> {
  // Loaded here: on a Node built without the inspector, loading it throws, and that must fail only this.
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
}
