/**
 * A feedsync worker (WorkerProcess: sync and notify workers, no scheduler) in a process of its
 * own, so that its memory is measured alone. The config tree comes as JSON in the file named by
 * BENCH_CONFIG_FILE; Redis and Postgres in BENCH_REDIS_URL and BENCH_DATABASE_URL. Prints one
 * JSON line once it takes work; SIGTERM drains and exits. Logs go to stderr.
 */
import { readFile } from 'node:fs/promises';
import pino from 'pino';
import { parseConfig } from '../../src/config/loadConfig.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { createLogger } from '../../src/observability/logger.js';

const { BENCH_CONFIG_FILE, BENCH_REDIS_URL, BENCH_DATABASE_URL } = process.env;
if (!BENCH_CONFIG_FILE || !BENCH_REDIS_URL || !BENCH_DATABASE_URL) throw new Error('BENCH_CONFIG_FILE, BENCH_REDIS_URL and BENCH_DATABASE_URL must be set');

const config = parseConfig(JSON.parse(await readFile(BENCH_CONFIG_FILE, 'utf8')), BENCH_CONFIG_FILE, {});
const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', destination: pino.destination(2) });
const feedsync = await WorkerProcess.open({ config, redisUrl: BENCH_REDIS_URL, databaseUrl: BENCH_DATABASE_URL, logger, roles: { worker: true, scheduler: false } });
await feedsync.start();

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  feedsync
    .close()
    .catch((error: unknown) => logger.error({ err: error }, 'closing the bench worker failed'))
    .finally(() => process.exit(0));
});
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid })}\n`);
