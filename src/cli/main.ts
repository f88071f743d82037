#!/usr/bin/env node
import { CommanderError } from 'commander';
import { feedsyncProgram } from './program.js';
import { reportCliError } from './reportCliError.js';

// A reader that stops early (`feedsync migrate | head -1`) closes the pipe: there is nothing left to
// say to it, so the command ends as it would have, without an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

try {
  await feedsyncProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  reportCliError(error);
  process.exit(1);
}
