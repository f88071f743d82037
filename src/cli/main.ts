#!/usr/bin/env -S node --max-semi-space-size=2
// The young generation capped at 2 × 2 MB (V8's default grows it to 2 × 16 MB under the load of a
// sync and never gives it back): about 20 MB less held by an idle worker and at a sync's peak, at
// no measured cost to throughput (npm run bench). The Dockerfile's ENTRYPOINT repeats the flag.
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
