import { timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import express, { type RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Queues } from '../jobs/queues.js';
import type { Runtime } from '../runtime/openRuntime.js';
import { migrationStatus } from '../storage/migrationStatus.js';
import type { FeedsyncMetrics } from './FeedsyncMetrics.js';

export interface OpsServerOptions {
  runtime: Runtime;
  queues: Queues;
  redis: Redis;
  metrics: FeedsyncMetrics;
  /** Required when the dashboard is enabled in the config. */
  dashboardAuth?: { user: string; password: string };
}

interface Check {
  ok: boolean;
  error?: string;
}

const CHECK_TIMEOUT_MS = 2000;
export const DASHBOARD_PATH = '/admin/queues';

async function check(name: string, probe: () => Promise<void>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${name} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)));
  try {
    await Promise.race([probe(), timeout]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function basicAuth(user: string, password: string): RequestHandler {
  return (request, response, next) => {
    const header = request.headers.authorization ?? '';
    const [scheme, encoded] = header.split(' ');
    const [givenUser, ...rest] = scheme === 'Basic' && encoded ? Buffer.from(encoded, 'base64').toString().split(':') : [];
    if (givenUser !== undefined && sameSecret(givenUser, user) && sameSecret(rest.join(':'), password)) {
      next();
      return;
    }
    response.set('WWW-Authenticate', 'Basic realm="feedsync"').status(401).json({ status: 'error', message: 'authentication required' });
  };
}

/**
 * The worker's HTTP port: /metrics (Prometheus), /healthz (the process answers), /readyz (Redis,
 * Postgres and migrations), and the bull-board dashboard when enabled.
 */
export class OpsServer {
  private readonly app = express();
  private server: Server | undefined;

  constructor(private readonly options: OpsServerOptions) {
    const { runtime, metrics } = options;
    this.app.disable('x-powered-by');
    this.app.get('/healthz', (_request, response) => {
      response.json({ status: 'ok', pid: process.pid, uptimeS: Math.round(process.uptime()) });
    });
    this.app.get('/readyz', async (_request, response) => {
      const checks = await this.readiness();
      const ready = Object.values(checks).every((c) => c.ok);
      response.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
    });
    this.app.get('/metrics', async (_request, response) => {
      response.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
    if (runtime.config.worker.dashboard) this.mountDashboard();
  }

  /** Listens on host:port (0: any free port); resolves with the base URL. */
  listen(port: number, host: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const server = this.app.listen(port, host, (error?: Error) => {
        if (error) reject(error);
        else resolve(`http://${host}:${(server.address() as AddressInfo).port}`);
      });
      this.server = server;
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async readiness(): Promise<Record<string, Check>> {
    const { redis, runtime } = this.options;
    const [redisCheck, postgres] = await Promise.all([
      check('redis', async () => {
        await redis.ping();
      }),
      check('postgres', async () => {
        await runtime.storage.pool.query('select 1');
      }),
    ]);
    const migrations = postgres.ok
      ? await check('migrations', async () => {
          const status = await migrationStatus(runtime.storage.pool);
          if (status.applied < status.expected) throw new Error(`${status.applied} of ${status.expected} migrations applied; run \`feedsync migrate\``);
        })
      : { ok: false, error: 'postgres unreachable' };
    return { redis: redisCheck, postgres, migrations };
  }

  private mountDashboard(): void {
    const auth = this.options.dashboardAuth;
    if (!auth) throw new Error('worker.dashboard is on, but DASHBOARD_USER and DASHBOARD_PASSWORD are not set');
    const adapter = new ExpressAdapter();
    adapter.setBasePath(DASHBOARD_PATH);
    createBullBoard({ queues: [new BullMQAdapter(this.options.queues.sync), new BullMQAdapter(this.options.queues.notify)], serverAdapter: adapter });
    this.app.use(DASHBOARD_PATH, basicAuth(auth.user, auth.password), adapter.getRouter() as RequestHandler);
  }
}
