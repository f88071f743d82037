import type pg from 'pg';
import { columnsOf } from '../database/columnsOf.js';
import { identityColumns } from '../runs/RunClaims.js';
import type { RunIdentity } from '../runs/runState.js';
import { findTick } from './statements/findTick.js';
import { checkOut } from '../database/checkOut.js';
import { InProcessTickLock, type InProcessTickLockOptions } from './InProcessTickLock.js';
import { releaseInProcessTick } from './statements/releaseInProcessTick.js';
import { tryInProcessTick } from './statements/tryInProcessTick.js';
import { insertTick } from './statements/insertTick.js';
import { insertTickRuns, type InsertTickRunsParams } from './statements/insertTickRuns.js';
import type { TickEndListeners } from './TickEndListeners.js';
import { countEndedRuns, endTicksNow, type TickNoticeFor } from './tickEnding.js';
import { findUncountedTicks } from './statements/findUncountedTicks.js';
import { tickStateOf, type TickPlan, type TickRow, type TickState } from './tickState.js';
import { inTransaction } from '../database/transaction.js';
import { traceparentOf } from '../../observability/tracing/spans.js';
import { describeTick } from '../../observability/tracing/runSpans.js';

/** A run of an opened tick, as created: queued, with its id. */
export interface TickRun {
  runId: string;
  runKey: string;
  queryIndex: number;
  value: string | undefined;
}

/** A tick as opened: its row, and its runs to queue. */
export interface OpenedTick {
  tick: TickState;
  runs: TickRun[];
}

/**
 * Opens job ticks: the tick row and its runs (queued) in one transaction, so that a tick's runs
 * exist before any of them is queued, and a reconciler finds any whose queue job is lost. A tick
 * with nothing to run (no values, every query skipped, or no runs could be made) ends as it opens,
 * with its notice.
 */
export class JobTicks {
  constructor(
    private readonly pool: Pick<pg.Pool, 'connect' | 'query'>,
    private readonly tickNoticeFor: TickNoticeFor | undefined,
    private readonly tickEnds: TickEndListeners,
  ) {}

  /** Opens the tick; undefined when a tick with its key exists already (it was fired elsewhere). */
  async open(plan: TickPlan): Promise<OpenedTick | undefined> {
    const opened = await this.openTick(plan);
    if (opened) describeTick(opened.tick.id, opened.runs.length);
    if (opened?.tick.status !== 'running') this.tickEnds.notify(opened ? [opened.tick] : []);
    return opened;
  }

  /**
   * Counts the ended runs of these ticks that no count has reached yet (a process that finished
   * one died before counting it) and ends those ticks all of whose runs are now counted. Returns
   * the ticks ended.
   */
  async countEnded(tickIds: Iterable<string>): Promise<TickState[]> {
    const ended = await countEndedRuns(this.pool, tickIds, this.tickNoticeFor);
    this.tickEnds.notify(ended);
    return ended;
  }

  /** As countEnded, for every tick with a run that ended uncounted `idleForMs` ago or more. */
  async countUncounted(idleForMs: number, limit = 100): Promise<TickState[]> {
    const { rows } = await this.pool.query<{ tick_id: string }>(findUncountedTicks.with({ idleForMs, limit }));
    return this.countEnded(rows.map((row) => row.tick_id));
  }

  async find(tickId: string): Promise<TickState | undefined> {
    const { rows } = await this.pool.query<TickRow>(findTick.with({ tickId }));
    return rows[0] ? tickStateOf(rows[0]) : undefined;
  }

  private openTick(plan: TickPlan): Promise<OpenedTick | undefined> {
    return inTransaction(this.pool, async (client) => {
      const inserted = await client.query<TickRow>(
        insertTick.with({
          id: plan.id,
          tickKey: plan.tickKey,
          job: plan.job,
          trigger: plan.trigger,
          scheduledFor: plan.scheduledFor ?? null,
          runsTotal: plan.runs.length + plan.skipped,
          runsSkipped: plan.skipped,
          error: plan.error ?? null,
          // Opened in the tick's span (launchTick): its notice's delivery continues this trace.
          traceparent: traceparentOf() ?? null,
        }),
      );
      const row = inserted.rows[0];
      if (!row) return undefined;
      const tick = tickStateOf(row);
      if (plan.runs.length === 0) {
        const [ended] = await endTicksNow(client, [tick], this.tickNoticeFor);
        return { tick: ended ?? tick, runs: [] };
      }
      const { rows } = await client.query<{ id: string; run_key: string }>(insertTickRuns.with(runColumns(plan.runs)));
      const ids = new Map(rows.map((run) => [run.run_key, run.id]));
      const runs = plan.runs.flatMap((run): TickRun[] => {
        const runId = ids.get(run.runKey);
        return runId ? [{ runId, runKey: run.runKey, queryIndex: run.queryIndex, value: run.value }] : [];
      });
      if (runs.length !== plan.runs.length) throw new Error(`tick ${plan.tickKey}: ${plan.runs.length - runs.length} of its run keys are taken by other runs`);
      return { tick, runs };
    });
  }

  /**
   * Marks, until the returned release, that this process runs the tick's runs itself (`feedsync
   * run`), on a connection of its own: nothing else would take those runs up, and a reconciler
   * that finds the lock gone closes what the process left unfinished (see inProcessRunnerGone).
   */
  async holdInProcess(tickId: string, log: InProcessTickLockOptions['log']): Promise<() => Promise<void>> {
    const lock = new InProcessTickLock(this.pool, tickId, { log });
    await lock.take();
    return () => lock.release();
  }

  /** Whether the process that ran this tick's runs itself is gone: nothing holds its lock (see holdInProcess). */
  async inProcessRunnerGone(tickId: string): Promise<boolean> {
    const { client, release } = await checkOut(this.pool);
    try {
      const { rows } = await client.query<{ taken: boolean }>(tryInProcessTick.with({ tickId }));
      if (rows[0]?.taken) await client.query(releaseInProcessTick.with({ tickId }));
      release();
      return rows[0]?.taken === true;
    } catch (error) {
      release(error as Error);
      throw error;
    }
  }
}

function runColumns(runs: readonly RunIdentity[]): InsertTickRunsParams {
  return columnsOf<RunIdentity, InsertTickRunsParams>(runs, identityColumns);
}
