import type { Command } from 'commander';
import { INT32_MAX } from '../../config/bounds.js';
import { DEFAULT_CONFIG_FILE } from '../../config/loading/loadConfig.js';
import { loadReadOnlySettings } from '../../config/loading/readOnlySettings.js';
import { openQueues } from '../../jobs/queues.js';
import { connectRedis } from '../../redis/openRedis.js';
import { redisTargetFromEnv } from '../redisEnv.js';
import { openStorage } from '../../storage/database/database.js';
import { recentRuns } from '../../storage/runs/recentRuns.js';
import { recentTicks } from '../../storage/ticks/recentTicks.js';
import { integerFlag, requireEnv } from '../options.js';
import { formatTable } from '../printTable.js';
import { formatRunTable, seconds } from '../runTable.js';
import { terminalJson } from '../terminalText.js';
import { tickProgress } from '../tickSummary.js';

interface StatusOptions {
  json?: boolean;
  limit: number;
  config: string;
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('recent job ticks and runs (with notice delivery) and queue counts')
    .option('--json', 'print JSON instead of tables')
    .option('--limit <n>', 'how many recent runs', integerFlag('--limit', 0, INT32_MAX), 20)
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action(async (options: StatusOptions) => {
      const { worker } = await loadReadOnlySettings(options.config);
      const connection = await connectRedis(redisTargetFromEnv(), 'producer');
      const storage = openStorage(requireEnv('DATABASE_URL'), { max: 2 });
      const queues = openQueues(connection, worker);
      try {
        const [ticks, runs, sync, notify, activeJobs] = await Promise.all([
          recentTicks(storage.db, options.limit),
          recentRuns(storage.db, options.limit),
          queues.sync.getJobCounts(...QUEUE_STATES),
          queues.notify.getJobCounts(...QUEUE_STATES),
          queues.sync.getActive(),
        ]);
        const active = activeJobs.map((job) => ({ runKey: job.data.runKey, job: job.data.job, queryIndex: job.data.queryIndex, value: job.data.value, attempt: job.attemptsMade + 1, progress: job.progress }));
        if (options.json || !process.stdout.isTTY) {
          process.stdout.write(`${terminalJson({ ticks, active, runs, queues: { sync, notify } })}\n`);
          return;
        }
        process.stdout.write(
          formatTable(
            ['tick started', 'job', 'trigger', 'status', 'runs', 'succeeded', 'partial', 'failed', 'skipped', 'new', 'updated', 'unchanged', 'records skipped', 'duration', 'notice', 'error'],
            ticks.map((tick) => [
              tick.startedAt.toISOString(),
              tick.job,
              tick.trigger,
              tickProgress(tick),
              tick.runs.total,
              tick.runs.succeeded,
              tick.runs.partial,
              tick.runs.failed,
              tick.runs.skipped,
              tick.records.new,
              tick.records.updated,
              tick.records.unchanged,
              tick.records.skipped,
              seconds(tick.durationMs),
              tick.notice,
              tick.error?.slice(0, 60),
            ]),
          ) + '\n\n',
        );
        if (active.length > 0) {
          const shown = (progress: unknown, field: string) => (typeof progress === 'object' && progress !== null ? (progress as Record<string, unknown>)[field] : undefined) as number | undefined;
          process.stdout.write(
            formatTable(
              ['active run', 'job', 'query', 'value', 'attempt', 'pages', 'records', 'expected'],
              active.map((run) => [run.runKey, run.job, run.queryIndex, run.value, run.attempt, shown(run.progress, 'pages'), shown(run.progress, 'records'), shown(run.progress, 'expectedTotal')]),
            ) + '\n',
          );
        }
        process.stdout.write(formatRunTable(runs));
        process.stdout.write(`\n${formatTable(['queue', ...QUEUE_STATES], [['sync', ...QUEUE_STATES.map((s) => sync[s])], ['notify', ...QUEUE_STATES.map((s) => notify[s])]])}`);
      } finally {
        await queues.close();
        connection.disconnect();
        await storage.close();
      }
    });
}
