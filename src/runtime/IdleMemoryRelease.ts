import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import type { Logger } from '../observability/logger.js';
import { lazyMallocTrim } from './mallocTrim.js';

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
  /** Reads the process's resident memory in bytes (default: its RSS). A seam for tests. */
  readResidentBytes?: () => number;
  /** Gives what the C allocator keeps of freed memory back to the system (default: glibc's malloc_trim, see mallocTrim). A seam for tests. */
  trim?: () => Promise<void>;
}

/** The young generation's size when the process starts: V8 grows it under load. */
const STARTING_CAPACITY_BYTES = 1024 * 1024;
/** Allocation below this rate between two looks is idle: V8's own bound for a low allocation rate (a waiting worker allocates ~20 bytes/ms). */
const IDLE_BYTES_PER_MS = 1000;
const DEFAULT_INTERVAL_MS = 10_000;
/** Resident memory grown by this much since the last release is trimmed: a run frees tens of MB, an idle worker's own churn far less. */
const TRIM_GROWTH_BYTES = 4 * 1024 * 1024;

/**
 * Gives the memory a worker's runs left behind back once it is idle. Under a sync V8 grows new
 * space to 32 MB and shrinks it only in a memory-reducing collection, which its memory reducer
 * starts only after an old-generation collection: a worker whose runs never needed one kept ~30 MB
 * it no longer used, between runs, for good. And glibc keeps the buffers a run freed resident
 * wherever something still in use sits above them in its arenas (10–60 MB here). When no run is
 * in progress and, between two looks, V8 collected nothing and the process allocated almost
 * nothing, this asks V8 for the collection a low-memory notification makes if new space has grown
 * (tens of ms, only then), and glibc for its free pages (malloc_trim) after that collection and
 * at the next idle look, or once resident memory has grown by 4 MB since the last release (a few ms).
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
  /** Resident memory after the last release (at first none: the start's own garbage is given back at the first idle look). */
  private releasedResidentBytes = 0;
  /** Set by a collection: the next idle look trims, whatever resident memory did. */
  private trimDue = false;
  private releasing = false;
  /** Set once a collection, or a trim, failed: it would fail again, so none is tried. */
  private collectUnavailable = false;
  private trimUnavailable = false;
  private readonly readYoungGeneration: () => YoungGeneration;
  private readonly collect: () => Promise<void>;
  private readonly readResidentBytes: () => number;
  private readonly trim: () => Promise<void>;
  private readonly intervalMs: number;

  constructor(private readonly options: IdleMemoryReleaseOptions) {
    this.readYoungGeneration = options.readYoungGeneration ?? (() => ({ ...readNewSpace(), collections: this.collectionsSeen }));
    this.collect = options.collect ?? collectThroughInspector;
    this.readResidentBytes = options.readResidentBytes ?? (() => process.memoryUsage.rss());
    this.trim = options.trim ?? lazyMallocTrim();
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

  /** One look: collects if new space has grown, and trims, if the process was idle since the last look. Resolves true if it did either. */
  async look(): Promise<boolean> {
    if (this.releasing) return false;
    const now = this.readYoungGeneration();
    const before = this.last;
    this.last = now;
    // V8 may shrink new space itself (its memory reducer): growth past that size is new again.
    this.releasedCapacityBytes = Math.min(this.releasedCapacityBytes, now.capacityBytes);
    if (before === undefined || this.options.isBusy() || !this.idleBetween(before, now)) return false;
    const collect = !this.collectUnavailable && now.capacityBytes > this.releasedCapacityBytes;
    const residentBytes = this.readResidentBytes();
    this.releasedResidentBytes = Math.min(this.releasedResidentBytes, residentBytes);
    const trim = !this.trimUnavailable && (collect || this.trimDue || residentBytes >= this.releasedResidentBytes + TRIM_GROWTH_BYTES);
    if (!collect && !trim) return false;
    this.releasing = true;
    try {
      let collected = false;
      let trimmed = false;
      if (collect) {
        collected = await this.attempt(this.collect, 'release idle memory');
        this.collectUnavailable = !collected;
      }
      // After the collection: the buffers it freed are among what the trim gives back (unless a run began meanwhile).
      if (trim && !this.options.isBusy()) {
        trimmed = await this.attempt(this.trim, 'trim freed native memory');
        this.trimUnavailable = !trimmed;
        this.trimDue = false;
      }
      if (collected) {
        // Its own collection is reported later: the next look only starts a new comparison.
        this.last = undefined;
        this.releasedCapacityBytes = this.readYoungGeneration().capacityBytes;
        // V8 may free some of what it collected on a helper thread after this trim: the next idle look trims again.
        this.trimDue = true;
      }
      if (!collected && !trimmed) return false;
      this.releasedResidentBytes = this.readResidentBytes();
      this.options.logger.debug(
        { newSpaceBytes: now.capacityBytes, afterBytes: this.releasedCapacityBytes, residentBytes, residentAfterBytes: this.releasedResidentBytes },
        'idle: gave memory back',
      );
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

  /** Runs one way of releasing memory; a failure (a Node without the inspector, a system without glibc) is warned of once, and the caller tries it no more. */
  private async attempt(release: () => Promise<void>, what: string): Promise<boolean> {
    try {
      await release();
      return true;
    } catch (error) {
      this.options.logger.warn({ err: { message: (error as Error).message } }, `could not ${what}; no further attempts`);
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
