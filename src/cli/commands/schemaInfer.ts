import type { Command } from 'commander';
import { inferKind } from '../../analytics/kindInference.js';
import { kindYaml } from '../../analytics/inferKind.js';
import { openStorage } from '../../storage/database/database.js';
import { integerFlag, nonEmptyFlag, requireEnv } from '../options.js';

interface InferOptions {
  source?: string;
  sample: number;
}

export function registerSchemaCommands(program: Command): void {
  const schema = program.command('schema').description("the record kinds' columns");
  schema
    .command('infer')
    .description('print the kinds.<kind> YAML of a kind, inferred from its stored records: a column per leaf path, the narrowest type every sampled value fits')
    .argument('<kind>', 'record kind', nonEmptyFlag('<kind>'))
    .option('--source <source>', 'only records of this source')
    .option('--sample <n>', 'latest records read', integerFlag('--sample', 1, 1_000_000), 1_000)
    .action(async (kind: string, options: InferOptions) => {
      const storage = openStorage(requireEnv('DATABASE_URL'), { max: 1 });
      try {
        const inferred = await inferKind(storage.pool, kind, options);
        if (inferred.records === 0) {
          throw new Error(`no stored records of kind "${kind}"${options.source ? ` from source "${options.source}"` : ''}: nothing to infer from (sync the job that stores them first)`);
        }
        process.stderr.write(`# from the latest ${inferred.records} records of kind ${kind}; check the types, then add to the config and run feedsync migrate\n`);
        process.stdout.write(kindYaml(kind, inferred.columns));
      } finally {
        await storage.close();
      }
    });
}
