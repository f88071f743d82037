import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loading/loadConfig.js';
import { migrateDatabase, openStorage } from '../../storage/database/database.js';
import { PageRetention, type PruneResult } from '../../storage/pages/PageRetention.js';
import { requireEnv } from '../options.js';

interface PruneOptions {
  dryRun?: boolean;
  config: string;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function describe(result: PruneResult, dryRun: boolean): string {
  if (result.envelopes === 0 && result.bodies === 0) return dryRun ? 'nothing to prune: every stored page is within its job’s retention' : 'nothing pruned: every stored page is within its job’s retention';
  const jobs = result.jobs.map((job) => `  ${job.job}: ${job.envelopes} envelopes${job.runs === undefined ? '' : ` of ${job.runs} runs`}`).join('\n');
  const verb = dryRun ? 'would remove' : 'removed';
  const bodies = dryRun ? `${result.bodies} page bodies no kept run refers to, ${megabytes(result.bytes)} freed (at most: a body two jobs share is counted by each)` : `${result.bodies} page bodies no run referred to any more, ${megabytes(result.bytes)} freed`;
  return `${verb} ${result.envelopes} envelopes${jobs ? `:\n${jobs}\n` : ' '}and ${bodies}`;
}

export function registerPruneCommand(program: Command): void {
  program
    .command('prune')
    .description('remove stored pages by the jobs’ retention (retention.envelopes), in short batches')
    .option('--dry-run', 'print what would be removed and the bytes freed, removing nothing')
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action(async (options: PruneOptions) => {
      const config = await loadConfig(options.config);
      const databaseUrl = requireEnv('DATABASE_URL');
      await migrateDatabase(databaseUrl);
      const storage = openStorage(databaseUrl, { max: 2 });
      try {
        const retention = new PageRetention(storage.pool);
        const result = options.dryRun ? await retention.plan(config) : await retention.prune(config);
        process.stdout.write(`${describe(result, options.dryRun ?? false)}\n`);
      } finally {
        await storage.close();
      }
    });
}
