import type { WriteMode } from '../../config/analytics/kindsSchema.js';

/** What a query's write mode adds to storing a page of its records. */
export interface PageWriteMode {
  /** full_refresh: the scope its returned keys are noted under, so that a complete run can mark the rest deleted. */
  refreshScope: string | null;
  /** append: keep each new or changed version in record_versions. */
  keepHistory: boolean;
}

/** The scope of a full_refresh query's keys: one per job and query key (so per fan-out value). Job names hold no "/". */
export function refreshScopeOf(job: string, queryKey: string): string {
  return `${job}/${queryKey}`;
}

export function pageWriteMode(mode: WriteMode, job: string, queryKey: string): PageWriteMode {
  return { refreshScope: mode === 'full_refresh' ? refreshScopeOf(job, queryKey) : null, keepHistory: mode === 'append' };
}

/** A page written as merge mode does: upsert only. */
export const MERGE: PageWriteMode = { refreshScope: null, keepHistory: false };
