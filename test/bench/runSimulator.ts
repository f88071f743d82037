/**
 * Runs `feedsync simulate --json` through the real command, without the rest of the CLI, so a
 * benchmark can drive the simulator from another process. Extra arguments are passed through.
 */
import { Command } from 'commander';
import { registerSimulateCommand } from '../../src/cli/commands/simulate.js';

const program = new Command('feedsync').exitOverride();
registerSimulateCommand(program);
await program.parseAsync(['simulate', '--json', '--port', '0', ...process.argv.slice(2)], { from: 'user' });
