import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type pg from 'pg';
import { poolOf, type Database } from './database.js';
import { NaturalBatcher } from '../runtime/NaturalBatcher.js';
import { countsOf, recordUpsertCtes, type RecordCounts, type SerialisedRecords } from './RecordStore.js';
import { incrementalCursors, syncRuns } from './schema.js';

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
  queryKey: string;
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
  /** The row version (xmin) this state was read or written as; a write fenced on it fails if the row moved since. */
  version: string;
}

/** A page's envelope as stored: the body as received and what was read from it. */
export interface PageEnvelope {
  requestUrl: string;
  raw: string;
  status: string;
  message: string;
  bytes: number;
  contentHash: string;
}

/** A fetched page ready to store: its envelope and its selected records. */
export interface PageToStore extends PageEnvelope {
  kind: string;
  /** The page's records, serialised and hashed (see serialiseRecords). */
  records: SerialisedRecords;
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

/** Locks the run row if it still stands at $2 pages: every write of a page depends on it. */
const CLAIM_PAGE = `claim as (
      select id from sync_runs where id = $1::uuid and pages = $2::int and status = 'running' for update
    )`;

/** Inserts the page's envelope for the run written by the CTE `run`; placeholders from `$first`. */
function envelopeCte(first: number): string {
  const [url, status, message, body, bytes, hash] = Array.from({ length: 6 }, (_, index) => `$${first + index}`);
  return `envelope as (
      insert into envelopes (run_id, page_seq, request_url, status, message, body, bytes, content_hash)
      select id, $2::int + 1, ${url}::text, ${status}::text, ${message}::text, ${body}::text::json, ${bytes}::int, ${hash}::text from run
    )`;
}

/**
 * storePage's statement. $1 run id, $2 pages before, $3 source, $4 kind, $5 keys, $6 hashes,
 * $7 payloads, $8 checkpoint, $9 cursor value, $10-$15 the envelope (request URL, status,
 * message, raw body, bytes, content hash).
 */
function storePageSql(prefilter: boolean): string {
  return `with ${CLAIM_PAGE},
    ${recordUpsertCtes({ source: '$3', kind: '$4', runId: '$1', keys: '$5', hashes: '$6', payloads: '$7', guard: 'exists (select 1 from claim)', prefilter })},
    run as (
      update sync_runs s
      set checkpoint = $8::jsonb, pages = s.pages + 1,
          records_new = s.records_new + counts.inserted,
          records_updated = s.records_updated + counts.updated,
          records_unchanged = s.records_unchanged + (cardinality($5::text[]) - counts.inserted - counts.updated),
          cursor_value = $9::text, updated_at = now()
      from counts
      where s.id in (select id from claim)
      returning s.id, s.xmin::text as version
    ),
    ${envelopeCte(10)}
    select (select version from run) as version, inserted, updated from counts`;
}

/**
 * storePage's statement for a page expected to hold no change (as the run's last page did), sent
 * without the records' payloads: $1 run id, $2 pages before, $3 source, $4 kind, $5 keys, $6
 * hashes, $7 checkpoint, $8 cursor value, $9-$14 the envelope. When every hash matches the one
 * stored, it stores the page (envelope, checkpoint, counters) and returns the run's version;
 * otherwise it writes nothing, and the page is stored again with its payloads.
 */
const STORE_UNCHANGED_PAGE = `with ${CLAIM_PAGE},
    changed as (
      select 1 from unnest($5::text[], $6::text[]) as n(key, hash)
      where n.hash is distinct from (select c.content_hash from records c where c.source = $3::text and c.kind = $4::text and c.key = n.key)
      limit 1
    ),
    run as (
      update sync_runs s
      set checkpoint = $7::jsonb, pages = s.pages + 1, records_unchanged = s.records_unchanged + cardinality($5::text[]),
          cursor_value = $8::text, updated_at = now()
      where s.id in (select id from claim) and not exists (select 1 from changed)
      returning s.id, s.xmin::text as version
    ),
    ${envelopeCte(9)}
    select (select version from run) as version, exists (select 1 from claim) as claimed`;

const STORE_PAGE = {
  prefiltered: { name: 'feedsync_store_page_v3', text: storePageSql(true) },
  direct: { name: 'feedsync_store_page_direct_v3', text: storePageSql(false) },
  unchanged: { name: 'feedsync_store_unchanged_page_v1', text: STORE_UNCHANGED_PAGE },
};

/** What storing a page did: its records' counts, and the run row's new version. */
export interface StoredPage {
  counts: RecordCounts;
  version: string;
}

/** Runs whose pages are remembered (whether the last one held unchanged records) at most; past it the memory starts again. */
const REMEMBERED_RUNS = 10_000;

/** sync_runs as Postgres returns it to the statements below. */
interface RunRecord {
  id: string;
  run_key: string;
  job: string;
  source: string;
  query_index: number;
  query_key: string;
  query: RunIdentity['query'];
  attempt: number;
  status: RunState['status'];
  checkpoint: unknown;
  pages: number;
  records_new: number;
  records_updated: number;
  records_unchanged: number;
  cursor_value: string | null;
  started_at: Date;
  finished_at: Date | null;
  error_kind: string | null;
  error: string | null;
  version: string;
}

const RUN_COLUMNS =
  'id, run_key, job, source, query_index, query_key, query, attempt, status, checkpoint, pages, records_new, records_updated, records_unchanged, cursor_value, started_at, finished_at, error_kind, error, xmin::text as version';

function stateOf(row: RunRecord): RunState {
  return {
    id: row.id,
    runKey: row.run_key,
    job: row.job,
    source: row.source,
    queryIndex: row.query_index,
    queryKey: row.query_key,
    query: row.query,
    attempt: row.attempt,
    status: row.status,
    checkpoint: row.checkpoint,
    pages: row.pages,
    counts: { new: row.records_new, updated: row.records_updated, unchanged: row.records_unchanged },
    cursorValue: row.cursor_value,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    errorKind: row.error_kind,
    error: row.error,
    version: row.version,
  };
}

/**
 * CLAIMS: one array per column, one element per run: $1 ids (null: generate), $2 run keys, $3
 * jobs, $4 sources, $5 query indexes, $6 query keys, $7 queries, $8 scheduled times. Inserts each
 * run, or takes it up again (attempt + 1) unless it succeeded; returns the rows it wrote.
 */
const CLAIMS = `insert into sync_runs as s (id, run_key, job, source, query_index, query_key, query, scheduled_for)
    select coalesce(id, gen_random_uuid()), run_key, job, source, query_index, query_key, query, scheduled_for
    from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[], $8::timestamptz[])
      as t(id, run_key, job, source, query_index, query_key, query, scheduled_for)
    -- One order for every process, so that two batches never wait on each other's keys in a cycle.
    order by run_key
    on conflict (run_key) do update
      set attempt = s.attempt + 1, status = 'running', finished_at = null, error = null, error_kind = null, updated_at = now()
      where s.status <> 'succeeded'
    returning ${RUN_COLUMNS}, now() as now`;

/** A "running" run with no stored page for this long is taken to be abandoned by the overlap policy. */
const STALE_RUN_MS = 15 * 60_000;

/** How often finish reads and writes again when the run row changed in between. */
const FINISH_ATTEMPTS = 5;

const FINISH_READ = `select ${RUN_COLUMNS}, now() as now from sync_runs where id = $1::uuid`;

/**
 * FINISH_WRITES: one array per column, one element per run: $1 run ids, $2 the row versions the
 * outcomes were made from, $3 statuses, $4 finish times, $5 stop reasons, $6 error kinds, $7
 * errors, $8/$9 cursor fields and values (null: none), $10-$12 notice ids, types and bodies (null:
 * none). Each run's writes depend on its row still being that version; returns the runs written.
 * A finish time sent from this machine is at most a millisecond short of the start (a JS Date
 * drops the microseconds); `greatest` keeps the row from ending before it started.
 */
const FINISH_WRITES = `with outcome as (
      select * from unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
        as t(id, version, status, finished_at, stop_reason, error_kind, error, cursor_field, cursor_value, notice_id, notice_type, notice_body)
    ),
    run as (
      update sync_runs s
      set status = o.status, finished_at = greatest(o.finished_at, s.started_at), stop_reason = o.stop_reason, error_kind = o.error_kind, error = o.error, updated_at = now()
      from outcome o
      where s.id = o.id and s.xmin::text = o.version
      returning s.id, s.job, s.query_key
    ),
    cursor as (
      insert into incremental_cursors as c (job, query_key, field, value, run_id, updated_at)
      select r.job, r.query_key, o.cursor_field, o.cursor_value, r.id, now() from run r join outcome o on o.id = r.id where o.cursor_field is not null
      order by r.job, r.query_key
      on conflict (job, query_key) do update set field = excluded.field, value = excluded.value, run_id = excluded.run_id, updated_at = excluded.updated_at
    ),
    notice as (
      insert into notices (id, run_id, type, body)
      select o.notice_id, r.id, o.notice_type, o.notice_body from run r join outcome o on o.id = r.id where o.notice_id is not null
      on conflict do nothing
    )
    select id from run`;

/** One run's finish, as FINISH_WRITES takes it. */
interface FinishWrite {
  run: RunState;
  version: string;
  outcome: RunOutcome;
  notice: NoticeToQueue | undefined;
}

/** Columns of a batch: the i-th array holds every input's i-th value. */
function columnsOf<T>(inputs: readonly T[], row: (input: T) => unknown[]): unknown[][] {
  const rows = inputs.map(row);
  return rows[0]!.map((_, column) => rows.map((values) => values[column]));
}

/** The sync_runs lifecycle, its pages and its outbox notice, each step one transaction. */
export class RunStore {
  /** The pool under `db`, for the statements kept as prepared statements. */
  private readonly pool: Pick<pg.Pool, 'query'>;
  /** Per run being stored here: whether its last page held unchanged records. */
  private readonly lastPageHadUnchanged = new Map<string, boolean>();
  /** This machine's clock minus the database's, as last seen: finish times are the database's, like start times. */
  private clockOffsetMs = 0;

  /**
   * Claims and finishes of concurrent runs share statements (see NaturalBatcher): with many
   * short runs, round trips, not the work in them, are what a run costs. Keyed so that one
   * statement never touches a run key, or a job's incremental cursor, twice.
   */
  private readonly claims = new NaturalBatcher<RunIdentity, RunRecord | undefined>((identities) => this.claimBatch(identities), { keyOf: (identity) => identity.runKey });
  private readonly finishes = new NaturalBatcher<FinishWrite, boolean>((writes) => this.finishBatch(writes), {
    keyOf: (write) => `${write.run.job}\u0000${write.run.queryKey}`,
  });

  constructor(private readonly db: Database) {
    this.pool = poolOf(db);
  }

  /**
   * Starts the run with this key, or resumes it (attempt + 1) when an earlier attempt did not
   * succeed. A run that already succeeded is returned as is and must not run again.
   */
  async claim(identity: RunIdentity): Promise<RunState> {
    const claimed = await this.claims.run(identity);
    if (claimed) return stateOf(claimed);
    const existing = await this.findByKey(identity.runKey);
    if (!existing) throw new Error(`run ${identity.runKey} vanished while being claimed`);
    return existing;
  }

  private async claimBatch(identities: readonly RunIdentity[]): Promise<(RunRecord | undefined)[]> {
    const values = columnsOf(identities, (identity) => [
      identity.id ?? null,
      identity.runKey,
      identity.job,
      identity.source,
      identity.queryIndex,
      identity.queryKey,
      JSON.stringify(identity.query),
      identity.scheduledFor ?? null,
    ]);
    const { rows } = await this.pool.query<RunRecord & { now: Date }>({ name: 'feedsync_claims_v2', text: CLAIMS, values });
    if (rows[0]) this.clockOffsetMs = Date.now() - rows[0].now.getTime();
    const byKey = new Map(rows.map((row) => [row.run_key, row]));
    return identities.map((identity) => byKey.get(identity.runKey));
  }

  async findByKey(runKey: string): Promise<RunState | undefined> {
    const { rows } = await this.pool.query<RunRecord>(`select ${RUN_COLUMNS} from sync_runs where run_key = $1::text`, [runKey]);
    return rows[0] ? stateOf(rows[0]) : undefined;
  }

  /** Whether another run of this job and query is running now (overlap policy). */
  async otherRunning(job: string, queryIndex: number, runKey: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: syncRuns.id })
      .from(syncRuns)
      .where(
        and(
          eq(syncRuns.job, job),
          eq(syncRuns.queryIndex, queryIndex),
          // A literal, not a parameter: a generic plan can use the partial index on running runs only then.
          sql`${syncRuns.status} = 'running'`,
          ne(syncRuns.runKey, runKey),
          // A run that has stored nothing for this long has lost its worker; it no longer blocks ticks.
          gt(syncRuns.updatedAt, sql`now() - ${`${STALE_RUN_MS} milliseconds`}::interval`),
        ),
      )
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
   * Stores one page, its records and the run's checkpoint atomically. The checkpoint only moves
   * from `pagesBefore`, so two processes on one run cannot both store a page.
   *
   * One statement, so one round trip: it locks the run row if it still stands at `pagesBefore`,
   * upserts the records, moves the checkpoint and counters, and inserts the envelope, each write
   * depending on that lock. A run that moved on elsewhere gets nothing written.
   *
   * A page is taken to be like the run's previous one. After a page of only new or changed
   * records (a first sync), the lookup of unchanged ones is skipped. After a page with unchanged
   * records (a re-sync), the page is first offered without its payloads, which an unchanged
   * page does not need; if a record did change, that offer writes nothing and the page is
   * stored with them. Every way stores the same.
   */
  async storePage(runId: string, pagesBefore: number, page: PageToStore, source: string): Promise<StoredPage> {
    const { records } = page;
    const checkpoint = JSON.stringify(page.checkpoint) ?? null;
    const envelope = [page.requestUrl, page.status, page.message, page.raw, page.bytes, page.contentHash];
    const lastHadUnchanged = this.lastPageHadUnchanged.get(runId);
    if (lastHadUnchanged === true) {
      const values = [runId, pagesBefore, source, page.kind, records.keys, records.hashes, checkpoint, page.cursorValue, ...envelope];
      const { rows } = await this.pool.query<{ version: string | null; claimed: boolean }>({ ...STORE_PAGE.unchanged, values });
      const row = rows[0];
      if (!row?.claimed) throw new RunTakenOverError(`run ${runId} moved past page ${pagesBefore} in another process`);
      if (row.version) return { counts: { new: 0, updated: 0, unchanged: records.keys.length }, version: row.version };
    }
    const values = [runId, pagesBefore, source, page.kind, records.keys, records.hashes, records.payloads, checkpoint, page.cursorValue, ...envelope];
    const statement = lastHadUnchanged === false ? STORE_PAGE.direct : STORE_PAGE.prefiltered;
    const { rows } = await this.pool.query<{ version: string | null; inserted: number; updated: number }>({ ...statement, values });
    const row = rows[0];
    if (!row?.version) throw new RunTakenOverError(`run ${runId} moved past page ${pagesBefore} in another process`);
    const counts = countsOf(records.keys.length, row);
    if (this.lastPageHadUnchanged.size >= REMEMBERED_RUNS) this.lastPageHadUnchanged.clear();
    if (records.keys.length > 0) this.lastPageHadUnchanged.set(runId, counts.unchanged > 0);
    return { counts, version: row.version };
  }

  /**
   * Records the final status, the incremental cursor and the outbox notice together, in one
   * statement that only writes if the run row is still the version the notice was made from.
   *
   * A caller that holds the run's current state (the process that ran it) passes it as `known`:
   * the notice is made from it and written in one round trip, with the finish time read off this
   * machine's clock set to the database's (as of the last claim). Otherwise, or if the row moved
   * since, the run is read (with the database's clock as the finish time) and the write fenced on
   * the version read, until one holds.
   */
  async finish(runId: string, outcome: RunOutcome, notice: (run: RunState) => NoticeToQueue | undefined, known?: RunState): Promise<RunState> {
    this.lastPageHadUnchanged.delete(runId);
    if (known?.id === runId) {
      // The offset carries a round trip's error: a run finished at once must not end before it started.
      const finishedAt = new Date(Math.max(known.startedAt.getTime(), Date.now() - this.clockOffsetMs));
      const run = finishedState(known, outcome, finishedAt);
      if (await this.writeFinish(run, known.version, outcome, notice(run))) return run;
    }
    for (let attempt = 1; ; attempt++) {
      const { rows } = await this.pool.query<RunRecord & { now: Date }>({ name: 'feedsync_finish_read_v2', text: FINISH_READ, values: [runId] });
      const read = rows[0];
      if (!read) throw new Error(`run ${runId} does not exist`);
      const run = finishedState(stateOf(read), outcome, read.now);
      if (await this.writeFinish(run, read.version, outcome, notice(run))) return run;
      if (attempt >= FINISH_ATTEMPTS) throw new Error(`run ${runId} kept changing while being finished`);
    }
  }

  /** Writes a finished state; false when the row is no longer at `version`. */
  private writeFinish(run: RunState, version: string, outcome: RunOutcome, notice: NoticeToQueue | undefined): Promise<boolean> {
    return this.finishes.run({ run, version, outcome, notice });
  }

  private async finishBatch(writes: readonly FinishWrite[]): Promise<boolean[]> {
    const values = columnsOf(writes, ({ run, version, outcome, notice }) => {
      const cursor = outcome.status === 'succeeded' ? outcome.cursor : undefined;
      return [
        run.id,
        version,
        outcome.status,
        run.finishedAt,
        outcome.stopReason ?? null,
        outcome.errorKind ?? null,
        outcome.error ?? null,
        cursor?.field ?? null,
        cursor?.value ?? null,
        notice?.id ?? null,
        notice?.type ?? null,
        notice?.body ?? null,
      ];
    });
    const { rows } = await this.pool.query<{ id: string }>({ name: 'feedsync_finish_writes_v2', text: FINISH_WRITES, values });
    const written = new Set(rows.map((row) => row.id));
    return writes.map((write) => written.has(write.run.id));
  }
}

function finishedState(run: RunState, outcome: RunOutcome, finishedAt: Date): RunState {
  return { ...run, status: outcome.status, finishedAt, errorKind: outcome.errorKind ?? null, error: outcome.error ?? null };
}
