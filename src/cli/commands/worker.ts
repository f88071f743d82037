import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loading/loadConfig.js';
import { WorkerProcess } from '../../runtime/WorkerProcess.js';
import { dashboardCredentials, requireEnv } from '../options.js';
import { redisTargetFromEnv } from '../redisEnv.js';
import { untilStopSignal } from '../stopSignal.js';

interface ProcessOptions {
  config: string;
}

/** Runs until SIGTERM/SIGINT, then drains; a second signal exits at once. */
async function runUntilSignal(roles: { worker: boolean; scheduler: boolean }, options: ProcessOptions): Promise<void> {
  const config = await loadConfig(options.config);
  const feedsync = await WorkerProcess.open({
    config,
    redis: redisTargetFromEnv(),
    databaseUrl: requireEnv('DATABASE_URL'),
    roles,
    // The scheduler alone serves nothing, so it never competes for the worker's port.
    http: roles.worker,
    dashboardAuth: dashboardCredentials(),
  });
  await feedsync.start();
  await untilStopSignal((signal) => feedsync.runtime.logger.info({ signal }, 'shutting down: draining current runs'));
  await feedsync.close();
}

export function registerWorkerCommands(program: Command): void {
  program
    .command('worker')
    .description('process sync jobs and deliver notices until stopped (SIGTERM drains)')
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action((options: ProcessOptions) => runUntilSignal({ worker: true, scheduler: false }, options));
  program
    .command('scheduler')
    .description("queue each job's runs on its cron schedule until stopped")
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action((options: ProcessOptions) => runUntilSignal({ worker: false, scheduler: true }, options));
  program
    .command('start')
    .description('worker and scheduler in one process, for a single machine')
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action((options: ProcessOptions) => runUntilSignal({ worker: true, scheduler: true }, options));
}
