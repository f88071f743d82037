import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE } from '../../config/loading/loadConfig.js';
import { loadReadOnlySettings } from '../../config/loading/readOnlySettings.js';
import { createLogger } from '../../observability/logger.js';
import { connectionSecrets, SecretScrubber } from '../../observability/SecretScrubber.js';
import { HistoryServer } from '../../runtime/HistoryServer.js';
import { openStorage } from '../../storage/database/database.js';
import { dashboardCredentials, integerFlag, requireEnv } from '../options.js';
import { untilStopSignal } from '../stopSignal.js';

interface HistoryOptions {
  port: number;
  host?: string;
  config: string;
}

export function registerHistoryCommand(program: Command): void {
  program
    .command('history')
    .description('serve the run history pages (/runs) from Postgres alone, behind DASHBOARD_USER / DASHBOARD_PASSWORD, until stopped')
    .option('--port <n>', 'port to listen on (0: any free port)', integerFlag('--port', 0, 65_535), 9465)
    .option('--host <address>', 'address to listen on (default: worker.httpHost)')
    .option('--config <file>', 'config file (its jobs and worker sections are read)', DEFAULT_CONFIG_FILE)
    .action(async (options: HistoryOptions) => {
      const { worker, jobs } = await loadReadOnlySettings(options.config);
      const credentials = dashboardCredentials();
      if (!credentials) throw new Error('feedsync history needs DASHBOARD_USER and DASHBOARD_PASSWORD: the pages show every run and its errors, so they are never served without credentials');
      const databaseUrl = requireEnv('DATABASE_URL');
      const storage = openStorage(databaseUrl, { max: 4 });
      const logger = createLogger({ secrets: new SecretScrubber(connectionSecrets([databaseUrl], credentials.password)) });
      const server = new HistoryServer({ storage, jobs, credentials, logger });
      try {
        const base = await server.listen(options.port, options.host ?? worker.httpHost);
        process.stdout.write(`run history at ${base}/runs (Ctrl-C stops)\n`);
        await untilStopSignal();
      } finally {
        await server.close();
        await storage.close();
      }
    });
}
