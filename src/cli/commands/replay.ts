import { Option, type Command } from 'commander';
import { INT32_MAX } from '../../config/bounds.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../config/loading/loadConfig.js';
import type { Config } from '../../config/schema.js';
import { noticeIdFor } from '../../notices/completionNotice.js';
import { openRuntime } from '../../runtime/openRuntime.js';
import { ReplayReader } from '../../storage/pages/ReplayReader.js';
import { replayJob, type ReplayRequest } from '../../sync/replayJob.js';
import type { ReplayOnError } from '../../sync/replayQuery.js';
import { dateFlag, integerFlag, nonEmptyFlag, requireEnv } from '../options.js';
import { ProgressLine } from '../ProgressLine.js';
import { printableLine } from '../terminalText.js';
import { tickSummary } from '../tickSummary.js';
import { untilStopSignal } from '../stopSignal.js';

interface ReplayOptions {
  job?: string;
  query?: number;
  value?: string;
  kind?: string;
  since?: Date;
  onError: ReplayOnError;
  config: string;
}

/** Each job, with the queries whose records are of this kind. */
function requestsForKind(config: Config, kind: string): ReplayRequest[] {
  const requests = config.jobs.flatMap((job) => {
    const queryIndexes = job.queries.flatMap((query, index) => ((query.records?.kind ?? job.records?.kind) === kind ? [index] : []));
    return queryIndexes.length > 0 ? [{ job: job.name, queryIndexes }] : [];
  });
  if (requests.length === 0) {
    const kinds = [...new Set(config.jobs.flatMap((job) => job.queries.map((query) => query.records?.kind ?? job.records?.kind)))].sort();
    throw new Error(`--kind ${kind}: no query of the config stores records of that kind (it has ${kinds.join(', ')})`);
  }
  return requests;
}

function requestsOf(config: Config, options: ReplayOptions): ReplayRequest[] {
  if ((options.job === undefined) === (options.kind === undefined)) throw new Error('replay needs either --job or --kind (one of them)');
  if (options.kind !== undefined) {
    if (options.query !== undefined || options.value !== undefined) throw new Error('--query and --value go with --job, not --kind');
    return requestsForKind(config, options.kind).map((request) => ({ ...request, since: options.since }));
  }
  return [{ job: options.job!, queryIndexes: options.query === undefined ? undefined : [options.query], value: options.value, since: options.since }];
}

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('rebuild records from the stored pages with the current config, without a request upstream')
    .option('--job <job>', 'replay this job’s stored pages')
    .option('--query <n>', 'only this query of the job (from 0)', integerFlag('--query', 0, INT32_MAX))
    .option('--value <value>', 'only the runs of this fan-out value', nonEmptyFlag('--value'))
    .option('--kind <kind>', 'replay every query whose records are of this kind')
    .option('--since <date>', 'only the pages of runs started then or later (UTC unless it says otherwise)', dateFlag('--since'))
    .addOption(new Option('--on-error <what>', 'a stored page the config no longer fits: stop the replay there, or skip it and go on').choices(['stop', 'skip']).default('stop'))
    .option('--config <file>', 'config file', DEFAULT_CONFIG_FILE)
    .action(async (options: ReplayOptions) => {
      const config = await loadConfig(options.config);
      const requests = requestsOf(config, options);
      const runtime = await openRuntime(config, { databaseUrl: requireEnv('DATABASE_URL') });
      const progress = new ProgressLine();
      // Ctrl-C stops after the page in hand; the same command later goes on from there.
      const interrupt = new AbortController();
      void untilStopSignal(() => interrupt.abort());
      let failed = false;
      try {
        for (const request of requests) {
          progress.begin(`replaying ${request.job}`);
          const replayed = await replayJob(config, request, {
            store: runtime.store,
            replayReader: new ReplayReader(runtime.storage.pool),
            logger: runtime.logger,
            onError: options.onError,
            noticeFor: runtime.noticeFor,
            signal: interrupt.signal,
            onPage: (state) => progress.update(state),
          });
          progress.end();
          if (!replayed) {
            process.stdout.write(`${request.job}: no stored pages to replay${options.since ? ` since ${options.since.toISOString()}` : ''}\n`);
            continue;
          }
          if (replayed.resumed) process.stdout.write(`${request.job}: resumed the replay a stop left unfinished (tick ${replayed.tick.id})\n`);
          for (const summary of replayed.summaries) {
            const { counts } = summary;
            const outcome = summary.error ? `${summary.status}: ${printableLine(summary.error)}` : summary.status;
            process.stdout.write(`${request.job} replay run ${summary.runId}: ${outcome}; ${summary.pages} pages, ${counts.new} new, ${counts.updated} updated, ${counts.unchanged} unchanged\n`);
            failed ||= summary.status !== 'succeeded';
          }
          process.stdout.write(`${tickSummary(replayed.tick)}\n`);
          if (runtime.outbox && replayed.tick.status !== 'running') await runtime.outbox.deliver(noticeIdFor(replayed.tick.id));
          if (interrupt.signal.aborted) break;
        }
      } finally {
        await runtime.close();
      }
      if (failed) process.exitCode = 1;
    });
}
