import { pagingSchema, type PagingConfig } from '../../src/config/schema.js';
import type { PageSummary } from '../../src/paging/Paginator.js';

/** Paging settings as the schema makes them, with pages of 3 items unless overridden. */
export const pagingConfig = (overrides: Record<string, unknown> = {}): PagingConfig => pagingSchema.parse({ limit: 3, ...overrides });

/** A result window of 6 results (two pages of 3) on `blockNumber`, slid with `startblock`. */
export const window6 = { maxResults: 6, param: 'startblock', field: 'blockNumber' };

/**
 * A page whose records have these block numbers, keyed uniquely per page; its content hash is
 * the block list unless given, and `data` is what the page's envelope carries beside them.
 */
export function pageOf(blocks: number[], hash = blocks.join(','), data: Record<string, unknown> = {}): PageSummary {
  const items = blocks.map((block, index) => ({ hash: `${block}-${index}-${hash}`, blockNumber: String(block) }));
  return { data, items, keys: items.map((item) => item.hash), link: undefined, contentHash: hash };
}
