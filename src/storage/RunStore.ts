import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { upsertRecords, type RecordCounts } from './RecordStore.js';
import { envelopes, incrementalCursors, notices, syncRuns } from './schema.js';

/** What identifies a run and what it asks for; `runKey` makes a run happen once. */
export interface RunIdentity {
  /** Chosen up front for manual runs so the caller can print it; generated otherwise. */
  id?: string;
  runKey: string;
  job: string;
  source: string;
  queryIndex: number;
  queryKey: string;
  query: { q: string | null; params: Record<string, string> };
  scheduledFor?: Date;
}

export interface RunState {
  id: string;
  runKey: string;
  job: string;
  source: string;
  queryIndex: number;
  query: RunIdentity['query'];
  attempt: number;
  status: 'running' | 'succeeded' | 'failed';
  /** The pipeline's resume point, stored as JSON; opaque here. */
  checkpoint: unknown;
  pages: number;
  counts: RecordCounts;
  cursorValue: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  errorKind: string | null;
  error: string | null;
}

/** A fetched page ready to store: the envelope as received and its selected records. */
export interface PageToStore {
  requestUrl: string;
  raw: string;
  status: string;
  message: string;
  bytes: number;
  contentHash: string;
  kind: string;
  keys: readonly string[];
  items: readonly unknown[];
  /** Where the run stands after this page: stored with it. */
  checkpoint: unknown;
  cursorValue: string | null;
}

export interface RunOutcome {
  status: 'succeeded' | 'failed';
  stopReason?: string;
  errorKind?: string;
  error?: string;
  /** For incremental queries: the field and highest value to keep for the next run. */
  cursor?: { field: string; value: string };
}

export interface NoticeToQueue {
  id: string;
  type: string;
  body: string;
}

/** Another process stored a page of this run first (a stalled job picked up twice). */
export class RunTakenOverError extends Error {
  override readonly name = 'RunTakenOverError';
}

type RunRow = typeof syncRuns.$inferSelect;

function toState(row: RunRow): RunState {
  return {
    id: row.id,
    runKey: row.runKey,
    job: row.job,
    source: row.source,
    queryIndex: row.queryIndex,
    query: row.query as RunIdentity['query'],
    attempt: row.attempt,
    status: row.status,
    checkpoint: row.checkpoint,
    pages: row.pages,
    counts: { new: row.recordsNew, updated: row.recordsUpdated, unchanged: row.recordsUnchanged },
    cursorValue: row.cursorValue,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    errorKind: row.errorKind,
    error: row.error,
  };
}

/** The sync_runs lifecycle, its pages and its outbox notice, each step one transaction. */
export class RunStore {
  constructor(private readonly db: Database) {}

  /**
   * Starts the run with this key, or resumes it (attempt + 1) when an earlier attempt did not
   * succeed. A run that already succeeded is returned as is and must not run again.
   */
  async claim(identity: RunIdentity): Promise<RunState> {
    const values = {
      ...(identity.id ? { id: identity.id } : {}),
      runKey: identity.runKey,
      job: identity.job,
      source: identity.source,
      queryIndex: identity.queryIndex,
      queryKey: identity.queryKey,
      query: identity.query,
      scheduledFor: identity.scheduledFor ?? null,
    };
    const [claimed] = await this.db
      .insert(syncRuns)
      .values(values)
      .onConflictDoUpdate({
        target: syncRuns.runKey,
        set: { attempt: sql`${syncRuns.attempt} + 1`, status: 'running', finishedAt: null, error: null, errorKind: null, updatedAt: sql`now()` },
        setWhere: sql`${syncRuns.status} <> 'succeeded'`,
      })
      .returning();
    if (claimed) return toState(claimed);
    const [existing] = await this.db.select().from(syncRuns).where(eq(syncRuns.runKey, identity.runKey));
    if (!existing) throw new Error(`run ${identity.runKey} vanished while being claimed`);
    return toState(existing);
  }

  async findByKey(runKey: string): Promise<RunState | undefined> {
    const [row] = await this.db.select().from(syncRuns).where(eq(syncRuns.runKey, runKey));
    return row ? toState(row) : undefined;
  }

  /** Whether another run of this job and query is running now (overlap policy). */
  async otherRunning(job: string, queryIndex: number, runKey: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: syncRuns.id })
      .from(syncRuns)
      .where(and(eq(syncRuns.job, job), eq(syncRuns.queryIndex, queryIndex), eq(syncRuns.status, 'running'), ne(syncRuns.runKey, runKey)))
      .limit(1);
    return rows.length > 0;
  }

  async readCursor(job: string, queryKey: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ value: incrementalCursors.value })
      .from(incrementalCursors)
      .where(and(eq(incrementalCursors.job, job), eq(incrementalCursors.queryKey, queryKey)));
    return row?.value;
  }

  /**
   * Stores one page, its records and the run's checkpoint in one transaction. The checkpoint
   * only moves from `pagesBefore`, so two processes on one run cannot both store a page.
   */
  async storePage(runId: string, pagesBefore: number, page: PageToStore, source: string): Promise<RecordCounts> {
    return this.db.transaction(async (tx) => {
      const counts = await upsertRecords(tx, { source, kind: page.kind, runId, keys: page.keys, items: page.items });
      await tx.insert(envelopes).values({
        runId,
        pageSeq: pagesBefore + 1,
        requestUrl: page.requestUrl,
        status: page.status,
        message: page.message,
        data: sql`(${page.raw}::jsonb) -> 'data'`,
        bytes: page.bytes,
        contentHash: page.contentHash,
      });
      const updated = await tx
        .update(syncRuns)
        .set({
          checkpoint: page.checkpoint,
          pages: sql`${syncRuns.pages} + 1`,
          recordsNew: sql`${syncRuns.recordsNew} + ${counts.new}`,
          recordsUpdated: sql`${syncRuns.recordsUpdated} + ${counts.updated}`,
          recordsUnchanged: sql`${syncRuns.recordsUnchanged} + ${counts.unchanged}`,
          cursorValue: page.cursorValue,
          updatedAt: sql`now()`,
        })
        .where(and(eq(syncRuns.id, runId), eq(syncRuns.pages, pagesBefore), eq(syncRuns.status, 'running')))
        .returning({ id: syncRuns.id });
      if (updated.length === 0) throw new RunTakenOverError(`run ${runId} moved past page ${pagesBefore} in another process`);
      return counts;
    });
  }

  /** Records the final status, the incremental cursor and the outbox notice together. */
  async finish(runId: string, outcome: RunOutcome, notice: (run: RunState) => NoticeToQueue | undefined): Promise<RunState> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(syncRuns)
        .set({
          status: outcome.status,
          finishedAt: sql`now()`,
          stopReason: outcome.stopReason ?? null,
          errorKind: outcome.errorKind ?? null,
          error: outcome.error ?? null,
          updatedAt: sql`now()`,
        })
        .where(eq(syncRuns.id, runId))
        .returning();
      if (!row) throw new Error(`run ${runId} does not exist`);
      const run = toState(row);
      if (outcome.status === 'succeeded' && outcome.cursor) {
        const cursor = { field: outcome.cursor.field, value: outcome.cursor.value, runId, updatedAt: sql`now()` };
        await tx
          .insert(incrementalCursors)
          .values({ job: row.job, queryKey: row.queryKey, ...cursor })
          .onConflictDoUpdate({ target: [incrementalCursors.job, incrementalCursors.queryKey], set: cursor });
      }
      const queued = notice(run);
      if (queued) await tx.insert(notices).values({ id: queued.id, runId, type: queued.type, body: queued.body }).onConflictDoNothing();
      return run;
    });
  }
}
