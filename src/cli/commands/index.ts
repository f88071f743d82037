import type { Command } from 'commander';
import { registerConfigCommand } from './configCheck.js';
import { registerMigrateCommand } from './migrate.js';
import { registerRunCommand } from './run.js';

/** Every subcommand registers itself here; `feedsync --help` lists them in this order. */
export function registerCommands(program: Command): void {
  registerRunCommand(program);
  registerConfigCommand(program);
  registerMigrateCommand(program);
}
