import { randomBytes, randomUUID } from 'node:crypto';
import { findJob, resolveQuery, type ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import { loadConfig } from '../../src/config/loading/loadConfig.js';
import { parseJson } from '../../src/config/records/exactJson.js';
import type { Config, PagingConfig, RecordSelectorConfig } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';
import { syncQuery, type RunSummary } from '../../src/sync/syncQuery.js';
import { startReplayUpstream, type ReplayRoute, type ReplayedRequest } from './replayUpstream.js';
import { capturingLogger } from './syncFixture.js';
import type { TestDatabase } from './testDatabase.js';

/** A key unlike anything in a recorded body. */
export const REPLAY_KEY = 'replay-key-5d0c2a9e71';
/** Retries that end quickly: a recorded error answers every attempt the same. */
const QUICK_RETRY = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 100 };

/** Where no request goes: each run points its source at a replay upstream of its own. */
const NOWHERE = 'http://127.0.0.1:9';

/** An example config as shipped, but for its base URL and key, without its rate limit and with quick retries. */
export async function loadExample(name: 'lastfm' | 'etherscan'): Promise<Config> {
  const source = name === 'lastfm' ? { LASTFM_BASE_URL: NOWHERE, LASTFM_API_KEY: REPLAY_KEY } : { ETHERSCAN_BASE_URL: NOWHERE, ETHERSCAN_API_KEY: REPLAY_KEY };
  const config = await loadConfig(`examples/${name}.yaml`, { ...source, WEBHOOK_BASE_URL: NOWHERE, WEBHOOK_UUID: randomUUID() });
  for (const settings of Object.values(config.sources)) Object.assign(settings, { rateLimit: undefined, retry: QUICK_RETRY });
  return config;
}

/** What a test changes in a query of the example: its parameters, records and paging override the query's own. */
export interface QueryChanges {
  q?: string;
  qParam?: string;
  params?: Record<string, string>;
  records?: Partial<RecordSelectorConfig>;
  paging?: Partial<PagingConfig>;
}

/** Query `index` of `job` as the example config has it (run for fan-out value `value`), with `changes` over it. */
export function exampleQuery(config: Config, job: string, changes: QueryChanges = {}, index = 0, value?: string): ResolvedQuery {
  const query = resolveQuery(config, findJob(config, job), index, value);
  return {
    ...query,
    ...(changes.q !== undefined && { q: changes.q, subject: query.value ?? changes.q }),
    qParam: changes.qParam ?? query.qParam,
    params: { ...query.params, ...changes.params },
    records: { ...query.records, ...changes.records },
    paging: { ...query.paging, ...changes.paging },
  };
}

export interface StoredRecord {
  key: string;
  /** Parsed as feedsync parses a page: every number kept exactly. */
  payload: unknown;
}

export interface ReplayRun {
  summary: RunSummary;
  /** The requests the run sent, in order. */
  requests: ReplayedRequest[];
  /** What the run stored, in the order it stored it. */
  records: StoredRecord[];
  /** Records its `records.skip` left out. */
  filtered: number;
  /** What the upstream said beside data it sent (Etherscan's throttled key). */
  warnings: string[];
  /** The total its last page stated, when it stated one. */
  expectedTotal: number | undefined;
}

/**
 * One run of `query` to its end against a replay upstream answering with `routes`, under a kind and
 * query key of its own (so no other test's records or incremental cursor are in its way), and what it stored.
 */
export async function replayRun(database: TestDatabase, routes: readonly ReplayRoute[], query: ResolvedQuery): Promise<ReplayRun> {
  const replay = await startReplayUpstream(routes);
  const own = randomBytes(4).toString('hex');
  const owned: ResolvedQuery = {
    ...query,
    source: { ...query.source, baseUrl: replay.baseUrl },
    queryKey: `${query.queryKey}/${own}`,
    records: { ...query.records, kind: `${query.records.kind}_${own}` },
  };
  const client = new SourceClient(owned.sourceName, owned.source);
  let expectedTotal: number | undefined;
  try {
    const summary = await syncQuery(owned, runIdentityOf(owned, `test/${randomUUID()}`), {
      store: openRunStore(database.db),
      client,
      gate: OPEN_GATE,
      logger: capturingLogger().logger,
      onPage: (progress) => void (expectedTotal = progress.expectedTotal),
    });
    const stored = await database.pool.query<{ key: string; payload: string }>('select key, payload::text as payload from records where kind = $1 order by change_seq', [owned.records.kind]);
    const run = await database.pool.query<{ filtered: number; warnings: string[] | null }>('select records_filtered as filtered, warnings from sync_runs where id = $1', [summary.runId]);
    return {
      summary,
      requests: replay.requests,
      records: stored.rows.map(({ key, payload }) => ({ key, payload: parseJson(payload) })),
      filtered: run.rows[0]!.filtered,
      warnings: run.rows[0]!.warnings ?? [],
      expectedTotal,
    };
  } finally {
    await Promise.all([client.close(), replay.close()]);
  }
}
