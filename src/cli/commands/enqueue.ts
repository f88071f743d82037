import type { Command } from 'commander';
import { INT32_MAX } from '../../config/bounds.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loading/loadConfig.js';
import { enqueueRuns, waitForRuns } from '../../jobs/enqueueRuns.js';
import { openQueues } from '../../jobs/queues.js';
import { connectRedis, openRedis } from '../../redis/openRedis.js';
import { redisTargetFromEnv } from '../redisEnv.js';
import { openRuntime } from '../../runtime/openRuntime.js';
import { integerFlag, nonEmptyFlag, requireEnv } from '../options.js';
import { printableLine } from '../terminalText.js';
import { tickSummary } from '../tickSummary.js';

interface EnqueueOptions {
  query?: number;
  value?: string;
  wait?: boolean;
  timeout?: number;
  config: string;
}

export function registerEnqueueCommand(program: Command): void {
  program
    .command('enqueue')
    .description('queue a tick of a job now for any worker ("sync now"): a run per query, or per value of a fan-out query; prints each run id')
    .argument('<job>', 'job name from the config')
    .option('--query <n>', 'queue only the query with this index (from 0)', integerFlag('--query', 0, INT32_MAX))
    .option('--value <value>', 'queue only this value of the fan-out (forEach) queries', nonEmptyFlag('--value'))
    .option('--wait', 'wait for the runs to end; exit non-zero if one failed')
    // In milliseconds it becomes a timer, which holds at most INT32_MAX.
    .option('--timeout <seconds>', 'with --wait: give up waiting after this long (exit non-zero)', integerFlag('--timeout', 0, Math.floor(INT32_MAX / 1000)))
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action(async (job: string, options: EnqueueOptions) => {
      const config = await loadConfig(options.config);
      const target = redisTargetFromEnv();
      // Redis is checked (reached, and of the topology its variable says) before the tick and its
      // runs are written to Postgres, where they would wait for a queue that is not there.
      const connection = await connectRedis(target, 'producer');
      const queues = openQueues(connection, config.worker);
      const runtime = await openRuntime(config, { databaseUrl: requireEnv('DATABASE_URL'), redis: target, poolSize: 2 }).catch(async (error: unknown) => {
        await queues.close();
        connection.disconnect();
        throw error;
      });
      try {
        const { tick, runs } = await enqueueRuns(config, runtime.store, queues, job, { queryIndex: options.query, value: options.value });
        for (const run of runs) process.stdout.write(`${run.runId}\n`);
        if (tick.error) {
          process.stderr.write(`${printableLine(tick.error)}\n`);
          process.exitCode = 1;
          return;
        }
        if (!options.wait) return;
        const events = openRedis(target, 'worker');
        const ends = await waitForRuns(events, queues, runtime.store.claims, runs, options.timeout === undefined ? undefined : options.timeout * 1000).finally(() => events.disconnect());
        for (const end of ends) {
          if (end.ok) {
            const { records } = end.result;
            process.stdout.write(`${end.result.runId}: ${end.result.status}; ${end.result.pages} pages, ${records.new} new, ${records.updated} updated, ${records.unchanged} unchanged\n`);
          } else {
            process.stderr.write(`${end.runKey}: failed: ${printableLine(end.error)}\n`);
            process.exitCode = 1;
          }
        }
        const ended = await runtime.store.ticks.find(tick.id);
        if (ended) process.stdout.write(`${tickSummary(ended)}\n`);
      } finally {
        await queues.close();
        connection.disconnect();
        await runtime.close();
      }
    });
}
