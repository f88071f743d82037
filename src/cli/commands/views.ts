import type { Command } from 'commander';
import { checkKindViews } from '../../analytics/viewsCheck.js';
import { loadAnalyticsSettings } from '../../config/loading/analyticsSettings.js';
import { DEFAULT_CONFIG_FILE } from '../../config/loading/loadConfig.js';
import { openStorage } from '../../storage/database/database.js';
import { printConfigWarnings } from '../configWarningLines.js';
import { requireEnv } from '../options.js';
import { formatTable } from '../printTable.js';

export function registerViewsCommands(program: Command): void {
  const views = program.command('views').description("the kinds' typed views (made by migrate and by a starting worker)");
  views
    .command('check')
    .description("count, per declared column, the stored values that do not cast to its type (NULL in the view)")
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action(async (options: { config: string }) => {
      const settings = await loadAnalyticsSettings(options.config);
      printConfigWarnings(options.config, settings.warnings);
      const storage = openStorage(requireEnv('DATABASE_URL'), { max: 1 });
      try {
        const checks = await checkKindViews(storage.pool, settings.kinds);
        if (checks.length === 0) {
          process.stdout.write(`${options.config} declares no kind columns\n`);
          return;
        }
        process.stdout.write(formatTable(['kind', 'column', 'type', 'values', 'not cast (NULL)'], checks.map((check) => [check.kind, check.column, check.type, check.present, check.uncast])));
        const uncast = checks.reduce((sum, check) => sum + check.uncast, 0);
        process.stdout.write(uncast === 0 ? 'every stored value casts to its column type\n' : `${uncast} values do not cast: their view shows NULL; fix the column's type or path, then run feedsync migrate\n`);
      } finally {
        await storage.close();
      }
    });
}
