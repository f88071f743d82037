import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobSchedule } from '../config/loading/readOnlySettings.js';
import { HistoryScreens } from '../history/HistoryScreens.js';
import { RunHistory } from '../history/RunHistory.js';
import type { Logger } from '../observability/logger.js';
import type { Storage } from '../storage/database/database.js';
import type { BasicCredentials } from './basicAuth.js';
import { answerHistoryRequest } from './historyListener.js';

export interface HistoryServerOptions {
  storage: Storage;
  jobs: readonly JobSchedule[];
  credentials: BasicCredentials;
  logger: Logger;
}

/**
 * The run history pages on a port of their own, reading Postgres alone: for looking at a
 * deployment's history from where neither the upstreams' keys nor Redis are at hand
 * (`feedsync history`). A worker with the dashboard on serves the same pages itself.
 */
export class HistoryServer {
  private readonly server: Server;

  constructor(options: HistoryServerOptions) {
    const screens = new HistoryScreens({ history: new RunHistory(options.storage.pool), jobs: options.jobs });
    this.server = createServer((request, response) => {
      const reading = request.method === 'GET' || request.method === 'HEAD';
      const path = (request.url ?? '/').split('?')[0]!;
      if (!reading || !HistoryScreens.serves(path)) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      answerHistoryRequest(request, response, screens, options.credentials).catch((error: unknown) => {
        options.logger.error({ err: error, path }, 'history page failed');
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('the history could not be read; see the log\n');
      });
    });
  }

  /** Listens on host:port (0: any free port); resolves with the base URL. */
  async listen(port: number, host: string): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return `http://${host}:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
