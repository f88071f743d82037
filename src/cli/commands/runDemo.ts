import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../config/loading/loadConfig.js';
import type { JobConfig } from '../../config/schema.js';
import { enqueueRuns, waitForRuns, type RunEnd } from '../../jobs/enqueueRuns.js';
import type { TickRun } from '../../storage/ticks/JobTicks.js';
import { openRedis } from '../../redis/openRedis.js';
import { WorkerProcess } from '../../runtime/WorkerProcess.js';
import { ensureLocalStack } from '../../localstack/localStack.js';
import { createLogger } from '../../observability/logger.js';
import { etherscanEnv, lastfmEnv, simulatorEnv } from '../../simulator/readyMessage.js';
import { startSimulator } from '../../simulator/startSimulator.js';
import { recentRuns } from '../../storage/runs/recentRuns.js';
import { countEnvelopes, type EnvelopeCountRow } from '../../storage/pages/statements/countEnvelopes.js';
import { countRecordsByKind, type RecordCountRow } from '../../storage/records/statements/countRecordsByKind.js';
import { compactJson, failureLines, storedTable, tickTable, type DemoTick } from '../demoSummary.js';
import { formatRunTable } from '../runTable.js';
import { demoDialectOf } from './demoDialect.js';

export interface DemoOptions {
  config: string;
  /** Also list every run. */
  runs?: boolean;
}

const NOTICE_WAIT_MS = 30_000;

/**
 * The body of `feedsync demo`, loaded only when it runs: it needs the local stack, the simulator and
 * `standardwebhooks`, a dev dependency that a production install leaves out.
 */
export async function runDemo(options: DemoOptions): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say('starting throwaway Redis and Postgres (or using REDIS_URL / DATABASE_URL) and the endpoint simulator…');
  const stack = await ensureLocalStack();
  let simulator = await startSimulator({ port: 0 });
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  // Every example's variables, so the config can be read to learn which dialect it needs.
  let env = { ...process.env, ...simulatorEnv(simulator), ...lastfmEnv(simulator), ...etherscanEnv(simulator), WEBHOOK_SECRET: secret };
  let feedsync: WorkerProcess | undefined;
  try {
    let config = await loadConfig(options.config, env);
    const dialect = demoDialectOf(config);
    if (dialect !== 'envelope') {
      // The config is for a real service: the simulator answers as that service does.
      await simulator.close();
      simulator = await startSimulator({ port: 0, dialect });
      env = { ...process.env, ...simulatorEnv(simulator), WEBHOOK_SECRET: secret };
      config = await loadConfig(options.config, env);
      say(`the config reads ${dialect} responses: the simulator speaks ${dialect}`);
    }
    feedsync = await WorkerProcess.open({
      config,
      redis: stack.redisUrl,
      databaseUrl: stack.databaseUrl,
      logger: createLogger({ level: process.env.LOG_LEVEL ?? 'warn' }),
      roles: { worker: true, scheduler: false },
    });
    await feedsync.start();
    const started = performance.now();
    const runs: TickRun[] = [];
    const ticks: { id: string; runIds: Set<string> }[] = [];
    const ends: RunEnd[] = [];
    const connection = openRedis(stack.redisUrl, 'worker');
    try {
      // Jobs that fan out over stored records go once the others have stored theirs.
      const readsStored = (job: JobConfig) => job.queries.some((query) => query.forEach?.kind !== undefined);
      for (const wave of [config.jobs.filter((job) => !readsStored(job)), config.jobs.filter(readsStored)]) {
        const waveRuns: TickRun[] = [];
        for (const job of wave) {
          const { tick, runs: tickRuns } = await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, job.name);
          waveRuns.push(...tickRuns);
          ticks.push({ id: tick.id, runIds: new Set(tickRuns.map((run) => run.runId)) });
        }
        if (wave.length > 0) say(`queued ${waveRuns.length} runs in ${wave.length} job ticks (${wave.map((job) => job.name).join(', ')}); syncing…`);
        ends.push(...(await waitForRuns(connection, feedsync.queues, feedsync.runtime.store.claims, waveRuns)));
        runs.push(...waveRuns);
      }
    } finally {
      connection.disconnect();
    }
    const seconds = (performance.now() - started) / 1000;
    const notices = config.webhook?.notices ?? 'job';
    const expected = (notices === 'run' ? 0 : ticks.length) + (notices === 'job' ? 0 : runs.length);
    const deadline = Date.now() + NOTICE_WAIT_MS;
    while (simulator.requests(simulator.webhookUuid).length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));

    const reports = (await recentRuns(feedsync.runtime.storage.db, runs.length)).reverse();
    const demoTicks: DemoTick[] = [];
    for (const { id, runIds } of ticks) {
      const tick = await feedsync.runtime.store.ticks.find(id);
      const pages = reports.filter((run) => runIds.has(run.runId)).reduce((sum, run) => sum + run.pages, 0);
      if (tick) demoTicks.push({ tick, pages });
    }
    say(`\njob ticks (${seconds.toFixed(1)} s in all):\n${tickTable(demoTicks)}`);
    for (const line of failureLines(reports)) say(line);
    if (options.runs) say(`\nruns:\n${formatRunTable(reports)}`);
    const { rows } = await feedsync.runtime.storage.pool.query<RecordCountRow>(countRecordsByKind.with({}));
    const views = new Map<string, { view: string; columns: number; rows: string }>();
    for (const [kind, settings] of Object.entries(config.kinds)) {
      const view = `${config.analytics.schema}.${settings.view ?? kind}`;
      const counted = await feedsync.runtime.storage.pool.query<{ n: string }>(`select count(*) as n from ${view}`);
      views.set(kind, { view, columns: Object.keys(settings.columns).length, rows: counted.rows[0]!.n });
    }
    say(`\nrecords stored, and each kind's typed view (see docs/analytics.md):\n${storedTable(rows, views)}`);
    const envelopes = await feedsync.runtime.storage.pool.query<EnvelopeCountRow>(countEnvelopes.with({}));
    say(`envelopes stored: ${envelopes.rows[0]?.n} pages, ${(Number(envelopes.rows[0]?.bytes) / 1e6).toFixed(1)} MB\n`);

    const posted = simulator.requests(simulator.webhookUuid);
    const verifier = new Webhook(secret);
    const verified = posted.filter((request) => {
      try {
        verifier.verify(request.body, request.headers);
        return true;
      } catch {
        return false;
      }
    });
    say(`notices posted to ${simulator.webhookBaseUrl}/${simulator.webhookUuid}: ${posted.length} (${verified.length} with a valid Standard Webhooks signature)`);
    const last = posted.at(-1);
    if (last) say(`last notice (webhook-id ${String(last.headers['webhook-id'])}):\n${compactJson(JSON.parse(last.body))}`);
    const failed = ends.filter((end) => !end.ok).length;
    // The simulator serves every record: a run that did not read them all is a finding, not a success.
    const partial = ends.filter((end) => end.ok && end.result.status === 'partial').length;
    if (failed + partial > 0 || posted.length < expected) {
      say(`\n${failed} runs failed, ${partial} ended partial (see their error); ${expected - posted.length} notices missing`);
      process.exitCode = 1;
    } else {
      say(`\ndemo finished: every run succeeded and every notice was delivered (one per ${notices === 'both' ? 'tick and one per run' : notices === 'job' ? 'job tick' : 'run'})`);
    }
  } finally {
    await feedsync?.close();
    await simulator.close();
    await stack.stop();
  }
}
