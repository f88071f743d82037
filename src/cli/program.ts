import { Command } from 'commander';
import { FEEDSYNC_VERSION } from '../http/userAgent.js';
import { registerCommands } from './commands/index.js';

/** The `feedsync` command tree, every subcommand registered: what main runs and what tests walk. */
export function feedsyncProgram(): Command {
  const program = new Command('feedsync')
    .description('Background data-sync worker: scheduled syncs from HTTP APIs into Postgres, with signed completion notices.')
    .version(FEEDSYNC_VERSION, '-V, --version', 'print feedsync\'s version')
    .showHelpAfterError()
    .exitOverride();
  registerCommands(program);
  return program;
}
