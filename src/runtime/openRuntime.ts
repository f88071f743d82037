import type { Config } from '../config/schema.js';
import { NoticeOutbox } from '../notices/NoticeOutbox.js';
import type { FeedsyncMetrics } from '../observability/FeedsyncMetrics.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { redisTargetSecrets, type RedisTarget } from '../redis/RedisTarget.js';
import { configuredSecrets, connectionSecrets, SecretScrubber } from '../observability/SecretScrubber.js';
import { migrateDatabase, openStorage, type Storage } from '../storage/database/database.js';
import { rekeyCompositeKeys } from '../sync/rekeyCompositeKeys.js';
import { completionNotice } from '../notices/completionNotice.js';
import { tickNotice } from '../notices/tickNotice.js';
import { openRunStore, type RunStore } from '../storage/runStore.js';
import type { NoticeToQueue, RunState } from '../storage/runs/runState.js';
import { SourceRegistry } from '../sync/SourceRegistry.js';
import { applyKindViews } from '../analytics/kindViews.js';
import { configWarnings, producedKinds } from '../config/configWarnings.js';
import { makeKindPartitions } from '../storage/records/recordsPartitions.js';
import { flushTracing, startTracing } from '../observability/tracing/startTracing.js';
import { FEEDSYNC_VERSION } from '../http/userAgent.js';

/** The long-lived parts every command shares, opened once and closed together. */
export interface Runtime {
  config: Config;
  logger: Logger;
  storage: Storage;
  store: RunStore;
  sources: SourceRegistry;
  /** Present when the config has a webhook. */
  outbox: NoticeOutbox | undefined;
  /** Makes a run's completion notice; present when the config has a webhook that posts run notices. */
  noticeFor: ((run: RunState) => NoticeToQueue) | undefined;
  metrics: FeedsyncMetrics | undefined;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  databaseUrl: string;
  /** Its passwords are scrubbed from the log (default: those of the REDIS_* variables). */
  redis?: RedisTarget | string;
  logger?: Logger;
  /** Apply pending migrations first (workers and one-off runs do; read-only commands need not). */
  migrate?: boolean;
  sources?: SourceRegistry;
  poolSize?: number;
  metrics?: FeedsyncMetrics;
}

export async function openRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  if (options.migrate ?? true) await migrateDatabase(options.databaseUrl);
  const sources = options.sources ?? new SourceRegistry(config);
  const secrets = loggedSecrets(config, options);
  const logger = options.logger ?? createLogger({ secrets });
  // Spans leave the process as log lines do: the same secrets are scrubbed from them.
  startTracing(secrets, FEEDSYNC_VERSION);
  const storage = openStorage(options.databaseUrl, { max: options.poolSize });
  // A process that brings the schema up to date brings its kinds' partitions and views, and the stored keys, with it.
  if (options.migrate ?? true) {
    try {
      const partitioned = await makeKindPartitions(storage.pool, producedKinds(config.jobs));
      if (partitioned.length > 0) logger.info({ kinds: partitioned }, 'records partitions made');
      await applyViews(config, storage, logger);
      await rekeyCompositeKeys(storage.pool, config, logger);
    } catch (error) {
      await storage.close();
      throw error;
    }
  }
  const notices = config.webhook?.notices;
  return {
    config,
    logger,
    storage,
    store: openRunStore(storage.db, { tickNoticeFor: notices === 'job' || notices === 'both' ? tickNotice : undefined }),
    sources,
    outbox: config.webhook ? new NoticeOutbox(storage.db, config.webhook, logger, Math.random, (result) => options.metrics?.noticeAttempted(result)) : undefined,
    noticeFor: notices === 'run' || notices === 'both' ? completionNotice : undefined,
    metrics: options.metrics,
    async close() {
      try {
        await sources.close();
        await storage.close();
      } finally {
        // Whatever failed to close, the spans of what ran (a worker's drain) still go.
        await flushTracing();
      }
    },
  };
}

/** What the log and the exported spans scrub: the config's secrets and the connections' own (a Redis client quotes its password back in a failed AUTH's error). */
function loggedSecrets(config: Config, options: RuntimeOptions): SecretScrubber {
  const redis = redisSecrets(options.redis);
  const connections = connectionSecrets([options.databaseUrl, ...redis.urls], process.env.DASHBOARD_PASSWORD);
  return new SecretScrubber([...configuredSecrets(config), ...connections, ...redis.passwords]);
}

/** A target's URLs and passwords, or, without one, those of every REDIS_* variable set. */
function redisSecrets(target: RedisTarget | string | undefined): { urls: string[]; passwords: string[] } {
  if (typeof target === 'string') return { urls: [target], passwords: [] };
  if (target) return redisTargetSecrets(target);
  const { REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS, REDIS_PASSWORD } = process.env;
  const urls = [REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS].flatMap((value) => (value ? value.split(',').map((url) => url.trim()) : []));
  return { urls, passwords: REDIS_PASSWORD ? [REDIS_PASSWORD] : [] };
}

async function applyViews(config: Config, storage: Storage, logger: Logger): Promise<void> {
  for (const warning of configWarnings(config, producedKinds(config.jobs))) logger.warn({ path: warning.path }, warning.message);
  const applied = await applyKindViews(storage.pool, config.kinds, config.analytics);
  if (applied.created.length + applied.dropped.length > 0) logger.info({ created: applied.created, dropped: applied.dropped }, 'kinds\' views made');
  if (applied.typedTablesMade.length > 0) logger.info({ kinds: applied.typedTablesMade, indexesMade: applied.indexes.created }, 'kinds\' typed tables made from their records');
  const { created, dropped } = applied.indexesPending;
  if (created.length + dropped.length > 0) logger.warn({ toMake: created, toDrop: dropped }, 'the typed tables\' indexes differ from the config: `feedsync migrate` makes and drops them');
}
