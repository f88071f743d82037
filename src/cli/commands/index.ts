import type { Command } from 'commander';
import { registerConfigCommand } from './configCheck.js';
import { registerDemoCommand } from './demo.js';
import { registerEnqueueCommand } from './enqueue.js';
import { registerExportCommand } from './export.js';
import { registerHistoryCommand } from './history.js';
import { registerMigrateCommand } from './migrate.js';
import { registerNoticesCommand } from './notices.js';
import { registerPruneCommand } from './prune.js';
import { registerReplayCommand } from './replay.js';
import { registerRunCommand } from './run.js';
import { registerSchemaCommands } from './schemaInfer.js';
import { registerSimulateCommand } from './simulate.js';
import { registerStatusCommand } from './status.js';
import { registerViewsCommands } from './views.js';
import { registerWorkerCommands } from './worker.js';

/** Every subcommand registers itself here; `feedsync --help` lists them in this order. */
export function registerCommands(program: Command): void {
  registerDemoCommand(program);
  registerRunCommand(program);
  registerReplayCommand(program);
  registerEnqueueCommand(program);
  registerWorkerCommands(program);
  registerStatusCommand(program);
  registerNoticesCommand(program);
  registerHistoryCommand(program);
  registerPruneCommand(program);
  registerExportCommand(program);
  registerConfigCommand(program);
  registerMigrateCommand(program);
  registerViewsCommands(program);
  registerSchemaCommands(program);
  registerSimulateCommand(program);
}
