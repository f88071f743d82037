import { NamedStatement } from '../../storage/database/NamedStatement.js';

export interface ReadRunPageTotalsParams {
  runId: string;
}

export interface PageTotalsRow {
  pages: number;
  bytes: string | null;
  mean_latency_ms: number | null;
  max_latency_ms: number | null;
}

/** How many pages a run stored, their bytes and their latency. */
export const readRunPageTotals = new NamedStatement<ReadRunPageTotalsParams>(
  'feedsync_history_run_page_totals_v1',
  `select count(*)::int as pages, sum(bytes)::text as bytes, round(avg(latency_ms))::int as mean_latency_ms, max(latency_ms) as max_latency_ms
    from envelopes where run_id = :runId::uuid`,
);
