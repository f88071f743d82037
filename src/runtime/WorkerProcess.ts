import { PageRetention } from '../storage/pages/PageRetention.js';
import type { BasicCredentials } from './basicAuth.js';
import type { RedisClient, RedisTarget } from '../redis/RedisTarget.js';
import type { Config } from '../config/schema.js';
import { sharedRateLimits } from '../http/RedisRateLimiter.js';
import { FeedsyncMetrics } from '../observability/FeedsyncMetrics.js';
import type { Logger } from '../observability/logger.js';
import { OpsServer } from './OpsServer.js';
import { openRuntime, type Runtime } from './openRuntime.js';
import { Scheduler } from '../scheduling/Scheduler.js';
import { CONNECTIONS_BESIDE_RUNS } from '../storage/database/database.js';
import { scrapeSources, sustainedRateLimits } from './scrapeSources.js';
import { SourceRegistry } from '../sync/SourceRegistry.js';
import { NotifyWorker } from '../notices/NotifyWorker.js';
import { openQueues, type Queues } from '../jobs/queues.js';
import { connectRedis, openRedis } from '../redis/openRedis.js';
import { SyncWorker } from '../jobs/SyncWorker.js';
import { RunReconciler } from '../jobs/RunReconciler.js';

export interface WorkerProcessOptions {
  config: Config;
  /** Where Redis is: a target read from the environment, or one node's URL. */
  redis: RedisTarget | string;
  databaseUrl: string;
  logger?: Logger;
  /** Which parts run here: sync/notify workers, the scheduler, or both (`feedsync start`). */
  roles: { worker: boolean; scheduler: boolean };
  /** Serve /metrics, /healthz, /readyz (and the dashboard when enabled) on `worker.httpPort`. */
  http?: boolean;
  /** Dashboard basic-auth credentials; the dashboard is served only when `worker.dashboard` is on. */
  dashboardAuth?: BasicCredentials;
}

/**
 * Everything one feedsync process runs, wired to one Redis and one Postgres: the sync and notify
 * workers and/or the scheduler, and the HTTP server for metrics and health. `close()` drains in
 * the right order.
 */
export class WorkerProcess {
  /** Base URL of the metrics and health server, once started. */
  httpUrl: string | undefined;

  private constructor(
    readonly runtime: Runtime,
    readonly queues: Queues,
    private readonly connections: RedisClient[],
    readonly syncWorker: SyncWorker | undefined,
    readonly notifyWorker: NotifyWorker | undefined,
    readonly scheduler: Scheduler | undefined,
    readonly ops: OpsServer | undefined,
    readonly reconciler: RunReconciler | undefined,
  ) {}

  static async open(options: WorkerProcessOptions): Promise<WorkerProcess> {
    const { config } = options;
    // Long-running processes wait out a Redis restart rather than fail commands.
    const shared = await connectRedis(options.redis, 'worker');
    const connections = [shared];
    const connect = () => {
      const connection = openRedis(options.redis, 'worker');
      connections.push(connection);
      return connection;
    };
    const queues = openQueues(shared, config.worker);
    // The metrics read notices, ticks and runs from storage, which the runtime opens after them.
    const opened: { runtime?: Runtime } = {};
    const metrics = new FeedsyncMetrics(scrapeSources(config, queues, () => opened.runtime), sustainedRateLimits(config));
    const sources = new SourceRegistry(config, {
      makeGate: sharedRateLimits(shared, config.worker.prefix),
      onRequestEnded: (source, status, latencyMs) => metrics.requestEnded(source, status, latencyMs),
    });
    const runtime = await openRuntime(config, { databaseUrl: options.databaseUrl, redis: options.redis, logger: options.logger, sources, metrics, poolSize: config.worker.concurrency + CONNECTIONS_BESIDE_RUNS });
    opened.runtime = runtime;
    runtime.store.tickEnds.add((ticks) => {
      for (const tick of ticks) metrics.tickEnded(tick.job, tick.status);
    });
    const notifyWorker = options.roles.worker && runtime.outbox ? new NotifyWorker(runtime.outbox, connect(), queues, runtime.logger) : undefined;
    const syncWorker = options.roles.worker
      ? new SyncWorker(runtime, { connection: connect(), queues, handToRunningDrain: notifyWorker ? () => notifyWorker.handToRunningDrain() : undefined })
      : undefined;
    const reconciler = syncWorker
      ? new RunReconciler(runtime, queues, shared, syncWorker.abandoned, { intervalMs: config.worker.reconcileIntervalMs, idleForMs: config.worker.reconcileAfterMs, changedWithinMs: config.worker.reconcileWithinMs })
      : undefined;
    const scheduler = options.roles.scheduler ? new Scheduler(config, queues, runtime.store, shared, runtime.logger, new PageRetention(runtime.storage.pool)) : undefined;
    const ops = options.http ? new OpsServer({ runtime, queues, redis: shared, metrics, dashboardAuth: options.dashboardAuth }) : undefined;
    return new WorkerProcess(runtime, queues, connections, syncWorker, notifyWorker, scheduler, ops, reconciler);
  }

  /** Starts every part; resolves once they are taking work. */
  async start(): Promise<void> {
    if (this.ops) {
      this.httpUrl = await this.ops.listen(this.runtime.config.worker.httpPort, this.runtime.config.worker.httpHost);
      this.runtime.logger.info({ url: this.httpUrl }, 'metrics and health endpoints listening');
    }
    if (this.scheduler) await this.scheduler.start();
    for (const worker of [this.syncWorker, this.notifyWorker]) {
      if (!worker) continue;
      worker.run().catch((error: unknown) => this.runtime.logger.error({ err: error }, 'worker stopped with an error'));
      await worker.waitUntilReady();
    }
    this.reconciler?.start();
    this.runtime.logger.info({ scheduler: !!this.scheduler, worker: !!this.syncWorker }, 'feedsync started');
  }

  /** Stops the scheduler, drains the workers (bounded), then closes connections. */
  async close(): Promise<void> {
    await this.scheduler?.stop();
    await this.reconciler?.stop();
    const drained = (await this.syncWorker?.close()) ?? true;
    if (!drained) this.runtime.logger.warn('drain timed out; unfinished runs resume elsewhere from their checkpoints');
    try {
      await this.notifyWorker?.close();
      await this.ops?.close();
      await this.queues.close();
    } finally {
      // Postgres, the sources and the spans of the drain, whatever Redis did.
      await this.runtime.close();
      for (const connection of this.connections) connection.disconnect();
    }
  }
}
