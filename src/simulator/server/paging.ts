import { integerParam, type ParamResult } from './queryParams.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export interface PageRequest {
  /** 1-based. */
  page: number;
  limit: number;
}

/** Where one page falls in a result of `total` items; a page past the end is empty, not an error. */
export interface PageSlice {
  page: number;
  perPage: number;
  total: number;
  /** 0 when total is 0. */
  totalPages: number;
  /** Index of the page's first item in the whole result. */
  offset: number;
  /** Items on this page. */
  count: number;
}

/**
 * `limit` (1..maxLimit, default 50) and `page` (>= 1, default 1), shared by every endpoint.
 * maxLimit null leaves the page size unbounded (Etherscan bounds it only by its result window).
 */
export function parsePageRequest(params: URLSearchParams, maxLimit: number | null = MAX_LIMIT): ParamResult<PageRequest> {
  const limit = integerParam(params, 'limit', { min: 1, ...(maxLimit !== null && { max: maxLimit }), fallback: DEFAULT_LIMIT });
  if (!limit.ok) return limit;
  const page = integerParam(params, 'page', { min: 1, fallback: 1 });
  if (!page.ok) return page;
  return { ok: true, value: { page: page.value, limit: limit.value } };
}

export function slicePage(request: PageRequest, total: number): PageSlice {
  const offset = (request.page - 1) * request.limit;
  return {
    page: request.page,
    perPage: request.limit,
    total,
    totalPages: Math.ceil(total / request.limit),
    offset,
    count: Math.max(0, Math.min(request.limit, total - offset)),
  };
}

/** The paging totals every paged `data` carries: page, perPage, total, totalPages. */
export function pagingTotals(slice: PageSlice): { page: number; perPage: number; total: number; totalPages: number } {
  return { page: slice.page, perPage: slice.perPage, total: slice.total, totalPages: slice.totalPages };
}
