import type pg from 'pg';
import { columnsOf } from '../database/columnsOf.js';
import type { DatabaseClock } from '../database/DatabaseClock.js';
import { NaturalBatcher } from '../database/NaturalBatcher.js';
import { isEnded, isPaused, runStateOf, type NoticeToQueue, type RunOutcome, type RunRow, type RunState } from './runState.js';
import { finishRuns, type FinishedRunRow, type FinishRunsParams } from './statements/finishRuns.js';
import { readRunToFinish } from './statements/readRunToFinish.js';
import type { TickEndListeners } from '../ticks/TickEndListeners.js';
import { countEndedRuns, type TickNoticeFor } from '../ticks/tickEnding.js';
import type { TransactionClient } from '../database/transaction.js';

/** How often finish reads and writes again when the run row changed in between. */
const FINISH_ATTEMPTS = 5;

/** One run's finish, as finishRuns takes it. */
interface FinishWrite {
  run: RunState;
  version: string;
  outcome: RunOutcome;
  notice: NoticeToQueue | undefined;
}

/**
 * Ends runs: the final status, the incremental cursor and the outbox notice together, in one
 * statement that only writes if the run row is still the version the notice was made from. A
 * run of a tick that ends for good is then counted to its tick (see tickEnding), which ends the
 * tick, with its notice, when it was the last.
 * Finishes of concurrent runs share a statement (see NaturalBatcher); one statement never
 * touches a job's incremental cursor twice.
 */
export class RunFinishes {
  private readonly batches = new NaturalBatcher<FinishWrite, boolean>((writes) => this.finishBatch(writes), {
    keyOf: (write) => `${write.run.job}\u0000${write.run.queryKey}`,
  });

  constructor(
    private readonly pool: Pick<pg.Pool, 'query' | 'connect'>,
    private readonly clock: DatabaseClock,
    private readonly tickNoticeFor: TickNoticeFor | undefined,
    private readonly tickEnds: TickEndListeners,
  ) {}

  /**
   * A caller that holds the run's current state (the process that ran it) passes it as `known`:
   * the notice is made from it and written in one round trip, with the finish time on the
   * database's clock (see DatabaseClock). Otherwise, or if the row moved since, the run is read
   * (with the database's clock as the finish time) and the write fenced on the version read,
   * until one holds.
   */
  async finish(runId: string, outcome: RunOutcome, notice: (run: RunState) => NoticeToQueue | undefined, known?: RunState): Promise<RunState> {
    if (known?.id === runId) {
      const finished = await this.finishIfUnchanged(known, outcome, notice);
      if (finished) return finished;
    }
    for (let attempt = 1; ; attempt++) {
      const { rows } = await this.pool.query<RunRow & { now: Date }>(readRunToFinish.with({ runId }));
      const read = rows[0];
      if (!read) throw new Error(`run ${runId} does not exist`);
      const current = runStateOf(read);
      // Ended elsewhere meanwhile (closed as abandoned, or finished by the process that took it over): it stays so.
      if (isEnded(current.status)) return current;
      const run = finishedState(current, outcome, read.now);
      if (await this.batches.run({ run, version: read.version, outcome, notice: notice(run) })) return run;
      if (attempt >= FINISH_ATTEMPTS) throw new Error(`run ${runId} kept changing while being finished`);
    }
  }

  /**
   * Finishes the run only if its row is still as `run` read it: undefined if it moved (another
   * process is acting on it). For closing runs from outside, where two closers must not both write.
   */
  async finishIfUnchanged(run: RunState, outcome: RunOutcome, notice: (run: RunState) => NoticeToQueue | undefined): Promise<RunState | undefined> {
    const finished = finishedState(run, outcome, this.clock.now(run.startedAt));
    return (await this.batches.run({ run: finished, version: run.version, outcome, notice: notice(finished) })) ? finished : undefined;
  }

  /** Writes a batch of finished states; false for each run no longer at its version. */
  private async finishBatch(writes: readonly FinishWrite[]): Promise<boolean[]> {
    const params = columnsOf<FinishWrite, FinishRunsParams>(writes, ({ run, version, outcome, notice }) => {
      const cursor = outcome.status === 'succeeded' || outcome.status === 'partial' ? outcome.cursor : undefined;
      return {
        runIds: run.id,
        versions: version,
        statuses: outcome.status,
        finishedAts: run.finishedAt!,
        stopReasons: outcome.stopReason ?? null,
        errorKinds: outcome.errorKind ?? null,
        errors: outcome.error ?? null,
        cursorFields: cursor?.field ?? null,
        cursorValues: cursor?.value ?? null,
        noticeIds: notice?.id ?? null,
        noticeTypes: notice?.type ?? null,
        noticeBodies: notice?.body ?? null,
        noticeTraceparents: notice?.traceparent ?? null,
        crashes: outcome.crashes ?? null,
      };
    });
    const rows = await writeFinishes(this.pool, params);
    // Counted after the finishes commit, apart: a tick's row is held for its count alone (see countTickRuns).
    const endedTicks = await countEndedRuns(this.pool, rows.flatMap((row) => (row.tick_id !== null && isEnded(row.status) ? [row.tick_id] : [])), this.tickNoticeFor);
    this.tickEnds.notify(endedTicks);
    const written = new Set(rows.map((row) => row.id));
    return writes.map((write) => written.has(write.run.id));
  }
}

async function writeFinishes(client: TransactionClient, params: FinishRunsParams): Promise<FinishedRunRow[]> {
  return (await client.query<FinishedRunRow>(finishRuns.with(params))).rows;
}

function finishedState(run: RunState, outcome: RunOutcome, finishedAt: Date): RunState {
  const crashes = Math.max(run.crashes, outcome.crashes ?? 0);
  const ended = isPaused(outcome.status) ? null : finishedAt;
  return { ...run, status: outcome.status, finishedAt: ended, crashes, errorKind: outcome.errorKind ?? null, error: outcome.error ?? null };
}
