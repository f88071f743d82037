import type { Command } from 'commander';
import { configJsonSchemaText } from '../../config/configJsonSchema.js';
import { configWarnings, producedKinds } from '../../config/configWarnings.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loading/loadConfig.js';
import { printConfigWarnings } from '../configWarningLines.js';

export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('inspect the configuration');
  config
    .command('check')
    .description('validate a config file and print every problem with its path')
    .argument('[file]', 'config file (YAML or TypeScript); the same as --config')
    .option('--config <file>', `config file, as every command takes it (default: ${DEFAULT_CONFIG_FILE})`)
    .action(async (positional: string | undefined, options: { config?: string }, command: Command) => {
      if (positional !== undefined && options.config !== undefined && positional !== options.config) {
        command.error(`error: config check takes one config file, given two: ${positional} and --config ${options.config}`);
      }
      const file = options.config ?? positional ?? DEFAULT_CONFIG_FILE;
      const loaded = await loadConfig(file);
      printConfigWarnings(file, configWarnings(loaded, producedKinds(loaded.jobs)));
      const queries = loaded.jobs.reduce((sum, job) => sum + job.queries.length, 0);
      process.stdout.write(`${file}: ok (${Object.keys(loaded.sources).length} sources, ${loaded.jobs.length} jobs, ${queries} queries)\n`);
    });
  config
    .command('schema')
    .description("print the config's JSON Schema (what feedsync.schema.json holds), for editors: `# yaml-language-server: $schema=<path>` atop a config")
    .action(() => {
      process.stdout.write(configJsonSchemaText());
    });
}
