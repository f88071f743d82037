import type { Command } from 'commander';
import { configWarnings, producedKinds } from '../../config/configWarnings.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loading/loadConfig.js';
import { printConfigWarnings } from '../configWarningLines.js';

export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('inspect the configuration');
  config
    .command('check')
    .description('validate a config file and print every problem with its path')
    .argument('[file]', 'config file (YAML or TypeScript)', DEFAULT_CONFIG_FILE)
    .action(async (file: string) => {
      const loaded = await loadConfig(file);
      printConfigWarnings(file, configWarnings(loaded, producedKinds(loaded.jobs)));
      const queries = loaded.jobs.reduce((sum, job) => sum + job.queries.length, 0);
      process.stdout.write(`${file}: ok (${Object.keys(loaded.sources).length} sources, ${loaded.jobs.length} jobs, ${queries} queries)\n`);
    });
}
