import type { Command } from 'commander';
import { migrateDatabase } from '../../storage/database.js';
import { requireEnv } from '../options.js';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations to DATABASE_URL')
    .action(async () => {
      await migrateDatabase(requireEnv('DATABASE_URL'));
      process.stdout.write('migrations applied\n');
    });
}
