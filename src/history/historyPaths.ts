/** The history page's addresses, made in one place so that links and routes agree. */

export const HISTORY_ROOT = '/runs';

export function jobHref(job: string, query: { status?: string; page?: number } = {}): string {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return `${HISTORY_ROOT}/jobs/${encodeURIComponent(job)}${search ? `?${search}` : ''}`;
}

export function runHref(runId: string, page?: number): string {
  return `${HISTORY_ROOT}/${runId}${page && page > 1 ? `?page=${page}` : ''}`;
}

export function pageMetaHref(runId: string, pageSeq: number): string {
  return `${HISTORY_ROOT}/${runId}/pages/${pageSeq}`;
}
