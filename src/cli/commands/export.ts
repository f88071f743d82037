import { once } from 'node:events';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { readChangeFeed } from '../../analytics/changeFeed.js';
import { CHANGE_FORMATS } from '../../analytics/changeFormats.js';
import { openStorage } from '../../storage/database/database.js';
import { nonEmptyFlag, requireEnv } from '../options.js';

interface ExportOptions {
  kind: string;
  since: bigint;
  format: string;
  source?: string;
}

function changeSeqFlag(value: string): bigint {
  if (!/^\d{1,19}$/.test(value) || BigInt(value) > 9_223_372_036_854_775_807n) throw new InvalidArgumentError(`--since must be a change_seq: an integer from 0, got "${value}"`);
  return BigInt(value);
}

function formatFlag(value: string): string {
  if (!(value in CHANGE_FORMATS)) throw new InvalidArgumentError(`--format must be one of ${Object.keys(CHANGE_FORMATS).join(', ')}, got "${value}"`);
  return value;
}

/** Writes to stdout, waiting when it is full, so a slow reader holds the export back rather than memory filling. */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('stream the change feed of a kind: every record inserted, changed or deleted after --since, in change_seq order, then the last change_seq')
    .requiredOption('--kind <kind>', 'record kind', nonEmptyFlag('--kind'))
    // Help prints a default with JSON.stringify, which cannot write a BigInt: it is described as text.
    .addOption(new Option('--since <change_seq>', 'the last change_seq already loaded').argParser(changeSeqFlag).default(0n, '0'))
    .option('--format <format>', `${Object.keys(CHANGE_FORMATS).join(' or ')}`, formatFlag, 'jsonl')
    .option('--source <source>', 'only records of this source')
    .action(async (options: ExportOptions) => {
      const format = CHANGE_FORMATS[options.format]!;
      const storage = openStorage(requireEnv('DATABASE_URL'), { max: 1 });
      try {
        let last = options.since.toString();
        if (format.header) await write(format.header);
        for await (const change of readChangeFeed(storage.pool, { kind: options.kind, source: options.source, since: options.since })) {
          await write(format.line(change));
          last = change.changeSeq;
        }
        await write(format.trailer(last));
      } finally {
        await storage.close();
      }
    });
}
