import { randomBytes, randomUUID } from 'node:crypto';
import type { SimulatorUrls } from './simulatorProcess.js';

/** A txlist query of the hot address over blocks `startblock..endblock` (10 txs per block). */
export interface TxListJob {
  name: string;
  startblock: number;
  endblock: number;
  limit: number;
  /** Records kind; a separate kind keeps a run's records apart from the others' ones. */
  kind: string;
}

/** The default chain: every active address is party to 10 txs in every block. */
export const TXS_PER_BLOCK = 10;

export function txListJob(name: string, records: number, startblock: number, limit: number, kind = 'transaction'): TxListJob {
  return { name, startblock, endblock: startblock + Math.ceil(records / TXS_PER_BLOCK) - 1, limit, kind };
}

export function expectedRecords(job: TxListJob): number {
  return (job.endblock - job.startblock + 1) * TXS_PER_BLOCK;
}

/** Warm-up runs read blocks from here on, apart from the measured ones. */
const WARM_UP_FIRST_BLOCK = 60_001;
/** The fan-out's values are blocks from here on, apart from the others. */
const FAN_OUT_FIRST_BLOCK = 70_001;
/** The rate budget's runs read blocks from here on, apart from the others, under a records kind of their own. */
const RATE_BUDGET_FIRST_BLOCK = 90_001;
export const RATE_BUDGET_JOB = 'rate-budget';
export const RATE_BUDGET_KIND = 'block_rate_budget';
/** Worker concurrency for the txlist runs, which are queued one at a time. */
export const TX_RUN_CONCURRENCY = 2;

export interface BenchConfigOptions {
  sim: SimulatorUrls;
  txJobs: TxListJob[];
  /** One-page getblock queries per `blocks-<n>` job, each job on blocks of its own. */
  blockQueries?: number;
  /** How many `blocks-<n>` jobs (n = 1, 2, …): one per measured trial. */
  blockJobs?: number;
  /** One-page getblock queries of a `blocks-warmup` job, on other blocks, run untimed first. */
  warmUpQueries?: number;
  /** Values of a `blocks-fanout` job: one query whose forEach lists that many blocks, one one-page run each. */
  fanOutValues?: number;
  /** One-page getblock queries of a `rate-budget` job (RATE_BUDGET_JOB), on blocks of their own, under RATE_BUDGET_KIND. */
  rateBudgetQueries?: number;
  /** The explorer's rate limit; none by default. */
  rateLimit?: { max: number; durationMs: number };
  /** worker.prefix: BullMQ queues and rate-limit keys apart from the other phases'; feedsync's default otherwise. */
  prefix?: string;
  /** The config's `kinds` section; none by default (no views, no typed tables). */
  kinds?: Record<string, unknown>;
  concurrency: number;
}

/**
 * The config tree the bench worker runs: the simulator's explorer without a rate limit unless
 * asked for (the figures are the pipeline's, not a politeness limit's), txlist jobs paged with
 * the 10,000-result window sliding on startblock, and a webhook with its own UUID at the
 * simulator's receiver, so that each measured run's notices are told apart.
 */
export function benchConfigTree(options: BenchConfigOptions): { tree: Record<string, unknown>; webhookUuid: string } {
  const { sim } = options;
  const webhookUuid = randomUUID();
  const jobs: unknown[] = options.txJobs.map((job) => ({
    name: job.name,
    source: 'explorer',
    records: { path: 'result', key: 'hash', kind: job.kind },
    paging: { limit: job.limit },
    queries: [{ q: sim.hotAddress, params: { module: 'account', action: 'txlist', sort: 'asc', startblock: job.startblock, endblock: job.endblock } }],
  }));
  const blockJob = (name: string, count: number, firstBlock: number, kind = 'block') => ({
    name,
    source: 'explorer',
    records: { path: 'result', key: 'number', kind },
    queries: Array.from({ length: count }, (_, n) => ({ q: String(firstBlock + n), params: { module: 'block', action: 'getblock' } })),
  });
  for (let n = 1; options.blockQueries && n <= (options.blockJobs ?? 1); n++) jobs.push(blockJob(`blocks-${n}`, options.blockQueries, 1 + (n - 1) * options.blockQueries));
  if (options.warmUpQueries) jobs.push(blockJob('blocks-warmup', options.warmUpQueries, WARM_UP_FIRST_BLOCK));
  if (options.rateBudgetQueries) jobs.push(blockJob(RATE_BUDGET_JOB, options.rateBudgetQueries, RATE_BUDGET_FIRST_BLOCK, RATE_BUDGET_KIND));
  if (options.fanOutValues) {
    const values = Array.from({ length: options.fanOutValues }, (_, n) => String(FAN_OUT_FIRST_BLOCK + n));
    jobs.push({ name: 'blocks-fanout', source: 'explorer', records: { path: 'result', key: 'number', kind: 'block' }, queries: [{ params: { module: 'block', action: 'getblock' }, forEach: { values } }] });
  }
  const tree = {
    sources: {
      explorer: {
        baseUrl: sim.explorerBaseUrl,
        apiKey: sim.apiKey,
        path: '/api',
        timeoutMs: 60_000,
        paging: { limit: 1000, maxPages: 10_000, window: { maxResults: 10_000, param: 'startblock', field: 'blockNumber' } },
        ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      },
    },
    jobs,
    // One notice per run: the bench's clock stops at the last run's.
    webhook: { baseUrl: sim.webhookBaseUrl, uuid: webhookUuid, secret: `whsec_${randomBytes(24).toString('base64')}`, notices: 'run' },
    worker: { concurrency: options.concurrency, attempts: 1, httpPort: 0, ...(options.prefix ? { prefix: options.prefix } : {}) },
    ...(options.kinds ? { kinds: options.kinds } : {}),
  };
  return { tree, webhookUuid };
}
