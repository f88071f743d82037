import { z } from 'zod';
import { count, integer } from '../bounds.js';
import { dotPath } from '../records/dotPath.js';

export const windowSchema = z
  .strictObject({
    maxResults: count(1).describe('The most results the upstream gives one query, page × limit (Etherscan: 10000).'),
    param: z.string().min(1).describe('The request parameter holding the lower bound (Etherscan: `startblock`).'),
    field: dotPath.describe('The record field whose last value read becomes the next lower bound (Etherscan: `blockNumber`).'),
  })
  .meta({
    id: 'window',
    description:
      "A result window: an upstream that caps page × limit (Etherscan's 10,000) is read by sliding the query's lower bound past the last record read. Page and offset styles only; not with `stopAtTotal` or `totalPagesPath`, whose counts change as the window slides.",
  });

export const pagingSchema = z
  .strictObject({
    // The styles src/paging/paginatorStyles.ts registers (config may not import paging: it is the bottom layer).
    style: z
      .enum(['page', 'offset', 'cursor', 'link_header', 'next_url'])
      .describe(
        'How the next page is asked for: `page` (a page number), `offset` (the offset of its first record), `cursor` (the cursor at `cursorPath` in the data), `link_header` (the URL of the `Link: <…>; rel="next"` header) or `next_url` (the URL at `nextUrlPath` in the data). A next-page URL must stay on `baseUrl`\'s origin, or the run fails naming it.',
      )
      .default('page'),
    limit: integer(1, 10_000).describe('Items per page, sent as `limitParam`.').default(50),
    limitParam: z.string().min(1).describe("The request parameter that carries `limit` (Etherscan's page size is `offset`).").default('limit'),
    pageParam: z.string().min(1).describe('The request parameter that carries the page number (`page` style).').default('page'),
    firstPage: count(0).describe("The first page's number (`page` style).").default(1),
    offsetParam: z.string().min(1).meta({ description: "The request parameter that carries the offset of the page's first record (`offset` style).", examples: ['start'] }).default('offset'),
    cursorPath: dotPath.meta({ description: 'Where the next cursor sits in the data (`cursor` style).', examples: ['meta.next_cursor'] }).optional(),
    cursorParam: z.string().min(1).meta({ description: 'The request parameter that carries the cursor (`cursor` style).', examples: ['after'] }).default('cursor'),
    nextUrlPath: dotPath.meta({ description: "Where the next page's URL, absolute or relative to the endpoint, sits in the data (`next_url` style).", examples: ['links.next'] }).optional(),
    maxPages: count(1).describe('Most pages a run reads: a run stopped by it ends `partial`, unless the stated total shows it read every record.').default(10_000),
    guessNextPage: z
      .boolean()
      .meta({
        description:
          'Page and offset styles: ask for the next page together with this one, guessing this one is full and not the last, so that the upstream\'s time and feedsync\'s overlap. A wrong guess is dropped unused and ends guessing for the run: at most one request a run, and none in runs of one or two pages. `false`: each request waits for the page before it (where every request is billed, say).',
        examples: [false],
      })
      .default(true),
    window: windowSchema.optional(),
    totalPath: z
      .union([dotPath, z.array(dotPath).min(1)], { error: 'must be a dot path or a list of dot paths' })
      .transform((paths) => (typeof paths === 'string' ? [paths] : paths))
      .describe(
        "Where the result total sits in the data: a dot path, or a list tried in order. Read for a run's progress (`expectedTotal`) and its shortfall check; set, it also gives the page count where the upstream states none (Last.fm's searches). Unset, `total`, `results.total` and `@attr.total` are tried, and give no page count: a total found so may count something else.",
      )
      .optional(),
    stopAtTotal: z
      .boolean()
      .meta({
        description: "Stop once the records read reach the total at `totalPath` (off by default: some totals, Last.fm's among them, are estimates). Not with a `window`, whose totals change as it slides.",
        examples: [true],
      })
      .default(false),
    totalPagesPath: dotPath.describe("Where the number of pages sits in the data (Last.fm's `recenttracks.@attr.totalPages`): paging stops after that many.").optional(),
    hasMorePath: dotPath.meta({ description: 'Where a "more pages" flag sits in the data: paging stops at a page where it is false.', examples: ['has_more'] }).optional(),
  })
  .meta({
    id: 'paging',
    description:
      'How a query\'s results are paged, and where paging stops (see "When paging stops" below). Set on a source, a job or a query: the most specific wins, field by field.',
  });

export type PagingConfig = z.output<typeof pagingSchema>;
