import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler } from 'express';
import type { RedisClient } from '../redis/RedisTarget.js';
import type { Queues } from '../jobs/queues.js';
import type { Runtime } from './openRuntime.js';
import { HistoryScreens } from '../history/HistoryScreens.js';
import { RunHistory } from '../history/RunHistory.js';
import { migrationStatus } from '../storage/database/migrationStatus.js';
import { authorized, BASIC_CHALLENGE, type BasicCredentials } from './basicAuth.js';
import { answerHistoryRequest } from './historyListener.js';
import { DASHBOARD_CSP, securityHeaders } from './securityHeaders.js';
import type { FeedsyncMetrics } from '../observability/FeedsyncMetrics.js';

export interface OpsServerOptions {
  runtime: Runtime;
  queues: Queues;
  redis: RedisClient;
  metrics: FeedsyncMetrics;
  /** Required when the dashboard is enabled in the config. */
  dashboardAuth?: BasicCredentials;
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

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

function basicAuth(credentials: BasicCredentials): RequestHandler {
  return (request, response, next) => {
    if (authorized(request.headers.authorization, credentials)) {
      next();
      return;
    }
    response.set(BASIC_CHALLENGE).status(401).json({ status: 'error', message: 'authentication required' });
  };
}

/**
 * The worker's HTTP port: /metrics (Prometheus), /healthz (the process answers), /readyz (Redis,
 * Postgres and migrations), and, when the dashboard is enabled, bull-board and the run history pages. The three endpoints are plain
 * node:http; express and bull-board are loaded only for the dashboard, so a worker without it does
 * not carry them.
 */
export class OpsServer {
  private server: Server | undefined;
  /** Set when the config turns the dashboard on. */
  private readonly dashboardAuth: BasicCredentials | undefined;
  /** The dashboard's express app, once mounted. */
  private dashboard: RequestListener | undefined;
  /** The run history pages, served with the dashboard. */
  private readonly history: HistoryScreens | undefined;

  constructor(private readonly options: OpsServerOptions) {
    if (options.runtime.config.worker.dashboard) {
      if (!options.dashboardAuth) throw new Error('worker.dashboard is on, but DASHBOARD_USER and DASHBOARD_PASSWORD are not set');
      this.dashboardAuth = options.dashboardAuth;
      this.history = new HistoryScreens({ history: new RunHistory(options.runtime.storage.pool), jobs: options.runtime.config.jobs });
    }
  }

  /** Listens on host:port (0: any free port); resolves with the base URL. */
  async listen(port: number, host: string): Promise<string> {
    if (this.dashboardAuth) this.dashboard = await mountDashboard(this.options.queues, this.dashboardAuth);
    const server = createServer((request, response) => {
      // Only a metrics collector can fail here, before anything is written.
      this.answer(request, response).catch((error: unknown) => sendJson(response, 500, { status: 'error', message: (error as Error).message }));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const [path] = (request.url ?? '/').split('?');
    if (this.dashboard && (path === DASHBOARD_PATH || path?.startsWith(`${DASHBOARD_PATH}/`))) {
      this.dashboard(request, response);
      return;
    }
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (reading && this.history && path !== undefined && HistoryScreens.serves(path)) {
      await answerHistoryRequest(request, response, this.history, this.dashboardAuth!);
      return;
    }
    if (reading && path === '/healthz') {
      sendJson(response, 200, { status: 'ok', pid: process.pid, uptimeS: Math.round(process.uptime()) });
    } else if (reading && path === '/readyz') {
      const checks = await this.readiness();
      const ready = Object.values(checks).every((c) => c.ok);
      sendJson(response, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks });
    } else if (reading && path === '/metrics') {
      const { registry } = this.options.metrics;
      send(response, 200, registry.contentType, await registry.metrics());
    } else {
      sendJson(response, 404, { status: 'error', message: 'not found' });
    }
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
}

/** The bull-board dashboard behind basic auth, as an express app; express and bull-board load only here. */
async function mountDashboard(queues: Queues, auth: BasicCredentials): Promise<RequestListener> {
  const [{ default: express }, { createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('express'),
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const adapter = new ExpressAdapter();
  adapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: [new BullMQAdapter(queues.sync), new BullMQAdapter(queues.notify)], serverAdapter: adapter });
  // bull-board's router is an express app of its own, which would name express again.
  const board = adapter.getRouter() as Express;
  const app = express();
  for (const layer of [app, board]) layer.disable('x-powered-by');
  const headers = securityHeaders(DASHBOARD_CSP);
  // Set before the credentials are checked, so that a 401 carries them too.
  const withHeaders: RequestHandler = (_request, response, next) => {
    response.set(headers);
    next();
  };
  app.use(DASHBOARD_PATH, withHeaders, basicAuth(auth), board);
  return app;
}
