import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loadAnalyticsSettings } from '../../config/loading/analyticsSettings.js';
import { DEFAULT_CONFIG_FILE } from '../../config/loading/loadConfig.js';
import { applyKindViews } from '../../analytics/kindViews.js';
import { migrateDatabase, openStorage } from '../../storage/database/database.js';
import { makeKindPartitions } from '../../storage/records/recordsPartitions.js';
import { printConfigWarnings } from '../configWarningLines.js';
import { requireEnv } from '../options.js';

interface MigrateOptions {
  config?: string;
}

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description("apply pending database migrations to DATABASE_URL, then make the config's kinds' records partitions and create or replace their views")
    .option('--config <file>', `config file whose kinds and analytics sections make the views (default: ${DEFAULT_CONFIG_FILE}, if there is one)`)
    .action(async (options: MigrateOptions) => {
      const databaseUrl = requireEnv('DATABASE_URL');
      const file = options.config ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
      const settings = file === undefined ? undefined : { file, ...(await loadAnalyticsSettings(file)) };
      await migrateDatabase(databaseUrl);
      process.stdout.write('migrations applied\n');
      if (!settings) {
        process.stdout.write(`no ${DEFAULT_CONFIG_FILE} here: no kinds' views made (--config names one)\n`);
        return;
      }
      printConfigWarnings(settings.file, settings.warnings);
      const storage = openStorage(databaseUrl, { max: 1 });
      try {
        const partitioned = await makeKindPartitions(storage.pool, Object.keys(settings.kinds));
        if (partitioned.length > 0) process.stdout.write(`records partitions made for kinds: ${partitioned.join(', ')}\n`);
        const applied = await applyKindViews(storage.pool, settings.kinds, settings.analytics, { indexes: true });
        const made = [...applied.created, ...applied.replaced, ...applied.unchanged];
        process.stdout.write(`views in schema ${settings.analytics.schema}: ${made.length === 0 ? 'none (the config declares no kinds)' : made.join(', ')}\n`);
        if (applied.dropped.length > 0) process.stdout.write(`views dropped (their kinds are no longer declared): ${applied.dropped.join(', ')}\n`);
        if (applied.typedTablesMade.length > 0) process.stdout.write(`typed tables made from the stored records for kinds: ${applied.typedTablesMade.join(', ')}\n`);
        if (applied.indexes.created.length > 0) process.stdout.write(`indexes made: ${applied.indexes.created.join(', ')}\n`);
        if (applied.indexes.dropped.length > 0) process.stdout.write(`indexes dropped (no longer in the config): ${applied.indexes.dropped.join(', ')}\n`);
      } finally {
        await storage.close();
      }
    });
}
