#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.js';
import { reportCliError } from './reportCliError.js';

const program = new Command('feedsync')
  .description('Background data-sync worker: scheduled syncs from HTTP APIs into Postgres, with signed completion notices.')
  .showHelpAfterError()
  .exitOverride();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  reportCliError(error);
  process.exit(1);
}
