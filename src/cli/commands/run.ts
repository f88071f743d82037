import type { Command } from 'commander';
import { redisTargetVariable, type RedisClient } from '../../redis/RedisTarget.js';
import { INT32_MAX } from '../../config/bounds.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loading/loadConfig.js';
import { findJob } from '../../config/jobs/resolveQuery.js';
import type { SourceConfig } from '../../config/schema.js';
import { sharedRateLimits } from '../../http/RedisRateLimiter.js';
import { connectRedis } from '../../redis/openRedis.js';
import { RedisTopologyError } from '../../redis/checkRedisTopology.js';
import { optionalRedisTarget } from '../redisEnv.js';
import { noticeIdFor } from '../../notices/completionNotice.js';
import { openRuntime } from '../../runtime/openRuntime.js';
import { runJobNow } from '../../sync/runJobNow.js';
import { SourceRegistry } from '../../sync/SourceRegistry.js';
import type { RunSummary } from '../../sync/syncQuery.js';
import { integerFlag, nonEmptyFlag, requireEnv } from '../options.js';
import { ProgressLine } from '../ProgressLine.js';
import { printableLine } from '../terminalText.js';
import { tickSummary } from '../tickSummary.js';

interface RunOptions {
  query?: number;
  value?: string;
  config: string;
}

export function formatSummary(job: string, summary: RunSummary): string {
  const { counts } = summary;
  const rate = Math.round((counts.new + counts.updated + counts.unchanged) / Math.max(summary.durationMs / 1000, 0.001));
  const reason = summary.shortfall ? `: ${summary.shortfall.kind}, ${printableLine(summary.shortfall.message)}` : summary.stopReason ? ` (${summary.stopReason})` : '';
  const outcome = summary.error ? `failed: ${printableLine(summary.error.message)}` : `${summary.status}${reason}`;
  return `${job} run ${summary.runId}: ${outcome}; ${summary.pages} pages, ${counts.new} new, ${counts.updated} updated, ${counts.unchanged} unchanged, ${Math.round(summary.durationMs)} ms, ${rate} records/s`;
}

/**
 * With Redis set (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS), a one-off run keeps to the
 * rate limit the workers share through Redis; without it, or for a source without a limit, no
 * Redis is needed.
 */
async function sharedLimitRedis(source: SourceConfig | undefined): Promise<RedisClient | undefined> {
  const target = optionalRedisTarget();
  if (!target || !source?.rateLimit) return undefined;
  const variable = redisTargetVariable(target);
  return connectRedis(target, 'producer').catch((error: unknown) => {
    if (error instanceof RedisTopologyError) throw error;
    throw new Error(`${variable}: Redis did not answer, and the run must keep to the rate limit the workers share there. Start it, or unset ${variable} to keep the limit in this process alone.`, { cause: error });
  });
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('run a job now, in this process, and wait for it to finish')
    .argument('<job>', 'job name from the config')
    .option('--query <n>', 'run only the query with this index (from 0)', integerFlag('--query', 0, INT32_MAX))
    .option('--value <value>', 'run only this value of the fan-out (forEach) queries', nonEmptyFlag('--value'))
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action(async (job: string, options: RunOptions) => {
      const config = await loadConfig(options.config);
      const databaseUrl = requireEnv('DATABASE_URL');
      const redis = await sharedLimitRedis(config.sources[findJob(config, job).source]);
      const sources = redis ? new SourceRegistry(config, { makeGate: sharedRateLimits(redis, config.worker.prefix) }) : undefined;
      const runtime = await openRuntime(config, { databaseUrl, sources }).catch((error: unknown) => {
        redis?.disconnect();
        throw error;
      });
      const progress = new ProgressLine();
      // Ctrl-C stops after the page in hand and records the run as interrupted, never left running.
      const interrupt = new AbortController();
      const stop = () => {
        interrupt.abort();
        process.once('SIGINT', () => process.exit(130));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      let failed = false;
      try {
        progress.begin(`running ${job}`);
        const { tick, summaries } = await runJobNow(config, job, { queryIndex: options.query, value: options.value }, {
          store: runtime.store,
          sources: runtime.sources,
          logger: runtime.logger,
          noticeFor: runtime.noticeFor,
          signal: interrupt.signal,
          resumable: false,
          databaseOutageMs: config.worker.databaseOutageMs,
          onPage: (state) => progress.update(state),
        });
        progress.end();
        for (const summary of summaries) {
          process.stdout.write(`${formatSummary(job, summary)}\n`);
          failed ||= summary.status === 'failed';
          // One delivery attempt now; a failed one stays in the outbox for the notify worker.
          if (runtime.noticeFor && runtime.outbox) await runtime.outbox.deliver(noticeIdFor(summary.runId));
        }
        const ended = (await runtime.store.ticks.find(tick.id)) ?? tick;
        process.stdout.write(`${tickSummary(ended)}\n`);
        failed ||= ended.error !== null;
        if (runtime.outbox) await runtime.outbox.deliver(noticeIdFor(tick.id));
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        await runtime.close().finally(() => redis?.disconnect());
      }
      if (failed) process.exitCode = 1;
    });
}
