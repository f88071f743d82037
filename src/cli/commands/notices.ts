import type { Command } from 'commander';
import { INT32_MAX } from '../../config/bounds.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loadConfig.js';
import { openQueues, queueOutboxDrain, redisConnection } from '../../jobs/queues.js';
import { NoticeOutbox } from '../../notices/NoticeOutbox.js';
import { createLogger } from '../../observability/logger.js';
import { openStorage } from '../../storage/database.js';
import { integerFlag, requireEnv } from '../options.js';
import { formatTable } from '../printTable.js';
import { terminalJson } from '../terminalText.js';

interface NoticesOptions {
  json?: boolean;
  limit: number;
  config: string;
}

async function withOutbox<T>(configFile: string, use: (outbox: NoticeOutbox, config: Awaited<ReturnType<typeof loadConfig>>) => Promise<T>): Promise<T> {
  const config = await loadConfig(configFile);
  if (!config.webhook) throw new Error(`${configFile} has no webhook section, so there are no notices`);
  const storage = openStorage(requireEnv('DATABASE_URL'), { max: 2 });
  try {
    return await use(new NoticeOutbox(storage.db, config.webhook, createLogger()), config);
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
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action((options: NoticesOptions) =>
      withOutbox(options.config, async (outbox) => {
        const rows = await outbox.list(options.limit);
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
      withOutbox(options.config, async (outbox, config) => {
        if (!(await outbox.redeliver(id))) throw new Error(`no notice with id ${id}`);
        const connection = redisConnection(requireEnv('REDIS_URL'), 'producer');
        const queues = openQueues(connection, config.worker);
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
