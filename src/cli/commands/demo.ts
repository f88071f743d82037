import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE } from '../../config/loading/loadConfig.js';
import type { DemoOptions, runDemo } from './runDemo.js';

/**
 * The main job end to end on embedded defaults: throwaway Redis and Postgres, the bundled
 * simulator, one full sync of every job of the example config through the queue and worker,
 * then what was stored and the notices the webhook received.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('run every job of the example config once, end to end, on throwaway local servers and the simulator')
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .option('--runs', 'also list every run: its query, fan-out value, pages, records and error')
    .action(async (options: DemoOptions) => {
      const run = await loadDemo();
      await run(options);
    });
}

/**
 * The demo's body, loaded only when it runs. A production install (`--omit=dev`) lacks the dev
 * dependencies it needs; that is said in one line rather than as a module-resolution trace.
 */
async function loadDemo(): Promise<typeof runDemo> {
  try {
    return (await import('./runDemo.js')).runDemo;
  } catch (error) {
    const missing = /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1];
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || missing === undefined) throw error;
    throw new Error(`feedsync demo is a development command: it needs the dev dependencies (${missing} is missing). Run \`npm install\` without --omit=dev first.`);
  }
}
