import pg from 'pg';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import type { TickRun } from '../../src/storage/ticks/JobTicks.js';
import { openStorage } from '../../src/storage/database/database.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { openQueues, type Queues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { cpuBetween, cpuSnapshot, type CpuSeconds } from './processCpu.js';
import { settleDatabase } from './settleDatabase.js';
import { waitForNotices } from './webhookNotices.js';
import { startWorkerChild, type WorkerMemory } from './workerChild.js';

export interface RunsToMeasure {
  configTree: unknown;
  webhookUuid: string;
  webhookBaseUrl: string;
  /** The simulator's process, whose CPU time is counted. */
  simulatorPid: number;
  redisUrl: string;
  databaseUrl: string;
  /** The measured trials, one after another in the same worker: the jobs each enqueues ("sync now"), every query of each. */
  trials: string[][];
  /** Jobs run to the end before the first trial, so that the worker is warm (its code compiled) as a long-running one is. */
  warmUpJobs?: string[];
  /** Records each trial's runs must report in all (new + updated + unchanged). */
  expectedRecords: number;
  /** Of those, how many must be new (undefined: not checked). */
  expectedNew?: number;
  timeoutMs: number;
  pollMs: number;
  nodeArgs?: string[];
  /** Extra environment for the worker, e.g. FEEDSYNC_FAST_PATHS_OFF. */
  env?: NodeJS.ProcessEnv;
}

export interface MeasuredRuns {
  runs: number;
  pages: number;
  records: number;
  counts: { new: number; updated: number; unchanged: number };
  /** From the first enqueue to the last notice received by the webhook receiver. */
  seconds: number;
  recordsPerS: number;
  pagesPerS: number;
  runsPerS: number;
  memory: WorkerMemory;
  /** CPU seconds each process spent over the measured time. */
  cpu: CpuSeconds;
}

/** What one trial's runs reported, before it is checked against the storage. */
type Trial = Omit<MeasuredRuns, 'memory'>;

interface RunRow {
  id: string;
  status: string;
  pages: number;
  has_checkpoint: boolean;
  envelopes: string;
}

/**
 * Runs through the real worker, in a fresh worker process: each trial's jobs are queued as "sync
 * now" runs from here, and its clock stops when its last completion notice reaches the simulator's
 * webhook receiver. Before each trial (untimed) the database is settled; after it, what was
 * stored is checked: every run succeeded, one envelope per page, a checkpoint, and one records
 * row first seen per new record. A trial's memory is the worker's peak so far.
 */
export async function measureRuns(options: RunsToMeasure): Promise<MeasuredRuns[]> {
  const config = parseConfig(options.configTree, 'bench config', {});
  const worker = await startWorkerChild({ configTree: options.configTree, redisUrl: options.redisUrl, databaseUrl: options.databaseUrl, nodeArgs: options.nodeArgs, env: options.env });
  const connection = openRedis(options.redisUrl, 'worker');
  const queues = openQueues(connection, config.worker);
  // Where `enqueue` opens each job's tick and its runs, as the CLI does.
  const storage = openStorage(options.databaseUrl, { max: 2 });
  const store = openRunStore(storage.db);
  try {
    for (const job of options.warmUpJobs ?? []) {
      const warmUp = await enqueueRuns(config, store, queues, job);
      await waitForNotices(options.webhookBaseUrl, options.webhookUuid, warmUp.runs.map((run) => run.runId), options.timeoutMs, options.pollMs);
    }
    const measured: MeasuredRuns[] = [];
    for (const jobs of options.trials) {
      // As autovacuum would by now in a worker that has run a while: fresh statistics, and plans cached while the tables were small re-planned.
      await settleDatabase(options.databaseUrl);
      const trial = await runTrial(options, config, store, queues, worker.pid, jobs);
      measured.push({ ...trial, memory: worker.memory() });
    }
    return measured;
  } finally {
    await worker.stop().catch(() => undefined);
    await queues.close();
    connection.disconnect();
    await storage.close();
  }
}

async function runTrial(options: RunsToMeasure, config: Config, store: RunStore, queues: Queues, workerPid: number, jobs: string[]): Promise<Trial> {
  const cpuBefore = cpuSnapshot({ worker: workerPid, simulator: options.simulatorPid });
  const startedAt = Date.now();
  const runs: TickRun[] = [];
  for (const job of jobs) runs.push(...(await enqueueRuns(config, store, queues, job)).runs);
  const runIds = runs.map((run) => run.runId);
  const notices = await waitForNotices(options.webhookBaseUrl, options.webhookUuid, runIds, options.timeoutMs, options.pollMs);
  const seconds = (Math.max(...notices.map((notice) => notice.receivedAtMs)) - startedAt) / 1000;
  const cpu = cpuBetween(cpuBefore, cpuSnapshot({ worker: workerPid, simulator: options.simulatorPid }));

  const failed = notices.filter((notice) => notice.type !== 'sync.succeeded');
  if (failed.length > 0) throw new Error(`${failed.length} of ${notices.length} runs did not succeed`);
  const counts = { new: 0, updated: 0, unchanged: 0 };
  let pages = 0;
  for (const notice of notices) {
    pages += notice.pages;
    counts.new += notice.records.new;
    counts.updated += notice.records.updated;
    counts.unchanged += notice.records.unchanged;
  }
  const records = counts.new + counts.updated + counts.unchanged;
  if (records !== options.expectedRecords) throw new Error(`the runs reported ${records} records, expected ${options.expectedRecords}`);
  if (options.expectedNew !== undefined && counts.new !== options.expectedNew) throw new Error(`the runs reported ${counts.new} new records, expected ${options.expectedNew}`);
  await checkStored(options.databaseUrl, runIds, pages, counts.new);
  return {
    runs: runs.length,
    pages,
    records,
    counts,
    seconds,
    recordsPerS: records / seconds,
    pagesPerS: pages / seconds,
    runsPerS: runs.length / seconds,
    cpu,
  };
}

/** Nothing was skipped to win a figure: every page has its envelope, every run its checkpoint, every new record its row. */
async function checkStored(databaseUrl: string, runIds: string[], pages: number, newRecords: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-check' });
  await client.connect();
  try {
    const { rows } = await client.query<RunRow>(
      `select r.id, r.status, r.pages, r.checkpoint is not null as has_checkpoint,
              (select count(*) from envelopes e where e.run_id = r.id) as envelopes
       from sync_runs r where r.id = any($1::uuid[])`,
      [runIds],
    );
    if (rows.length !== runIds.length) throw new Error(`${rows.length} of ${runIds.length} runs are in sync_runs`);
    const bad = rows.filter((row) => row.status !== 'succeeded' || !row.has_checkpoint || Number(row.envelopes) !== row.pages);
    if (bad.length > 0) throw new Error(`${bad.length} runs are incomplete in storage, e.g. ${JSON.stringify(bad[0])}`);
    const storedPages = rows.reduce((sum, row) => sum + row.pages, 0);
    const seen = await client.query<{ n: string }>('select count(*) as n from records where first_seen_run_id = any($1::uuid[])', [runIds]);
    const firstSeen = Number(seen.rows[0]?.n);
    if (storedPages !== pages) throw new Error(`sync_runs counts ${storedPages} pages, the notices ${pages}`);
    if (firstSeen !== newRecords) throw new Error(`records has ${firstSeen} rows first seen by these runs, the notices count ${newRecords} new`);
  } finally {
    await client.end();
  }
}
