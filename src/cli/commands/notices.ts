import type { Command } from 'commander';
import { INT32_MAX } from '../../config/bounds.js';
import { DEFAULT_CONFIG_FILE } from '../../config/loading/loadConfig.js';
import { loadReadOnlySettings } from '../../config/loading/readOnlySettings.js';
import { openQueues, queueOutboxDrain } from '../../jobs/queues.js';
import { connectRedis } from '../../redis/openRedis.js';
import { redisTargetFromEnv } from '../redisEnv.js';
import { listNotices, markForRedelivery } from '../../notices/noticeLog.js';
import { openStorage, type Database } from '../../storage/database/database.js';
import { integerFlag, requireEnv } from '../options.js';
import { formatTable } from '../printTable.js';
import { terminalJson } from '../terminalText.js';

interface NoticesOptions {
  json?: boolean;
  limit: number;
}

/** Runs `use` with the database; the notices commands need no upstream's settings. */
async function withDatabase<T>(use: (db: Database) => Promise<T>): Promise<T> {
  const storage = openStorage(requireEnv('DATABASE_URL'), { max: 2 });
  try {
    return await use(storage.db);
  } finally {
    await storage.close();
  }
}

export function registerNoticesCommand(program: Command): void {
  const notices = program.command('notices').description('completion notices and their delivery state (list, redeliver)');
  notices
    .command('list', { isDefault: true })
    .description('notices, newest first, with their delivery state')
    .option('--json', 'print JSON instead of a table')
    .option('--limit <n>', 'how many, newest first', integerFlag('--limit', 0, INT32_MAX), 50)
    .action((options: NoticesOptions) =>
      withDatabase(async (db) => {
        const rows = await listNotices(db, options.limit);
        if (options.json || !process.stdout.isTTY) {
          process.stdout.write(`${terminalJson(rows)}\n`);
          return;
        }
        process.stdout.write(
          formatTable(
            ['id', 'type', 'state', 'attempts', 'created', 'delivered', 'last error'],
            rows.map((n) => [n.id, n.type, n.state, n.attempts, n.createdAt.toISOString(), n.deliveredAt?.toISOString(), n.lastError]),
          ),
        );
      }),
    );
  notices
    .command('redeliver')
    .description('send a notice again (any state), through the notify queue')
    .argument('<id>', 'notice id (webhook-id), e.g. msg_…')
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action((id: string, options: { config: string }) =>
      withDatabase(async (db) => {
        const { worker } = await loadReadOnlySettings(options.config);
        if (!(await markForRedelivery(db, id))) throw new Error(`no notice with id ${id}`);
        const connection = await connectRedis(redisTargetFromEnv(), 'producer');
        const queues = openQueues(connection, worker);
        try {
          await queueOutboxDrain(queues);
        } finally {
          await queues.close();
          connection.disconnect();
        }
        process.stdout.write(`${id}: queued for delivery\n`);
      }),
    );
}
