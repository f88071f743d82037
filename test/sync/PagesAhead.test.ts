import { describe, expect, it } from 'vitest';
import type { PagePosition } from '../../src/paging/Paginator.js';
import { PagesAhead, type PreparedPage } from '../../src/sync/PagesAhead.js';
import { serialiseRecords } from '../../src/storage/serialiseRecords.js';

/** Pages 1..last, each at position {page: n}; records requests, each answered when the test says. */
function pagesUpTo(last: number) {
  const requested: number[] = [];
  const fetchPage = (position: PagePosition, page: number): Promise<PreparedPage> => {
    requested.push(page);
    expect(position.page).toBe(page);
    const advance = page >= last ? { done: true as const, reason: 'short_page' as const, position: at(page + 1) } : { done: false as const, position: at(page + 1) };
    return Promise.resolve({
      envelope: { requestUrl: `page ${page}`, raw: '{}', status: 'success', message: '', bytes: 2, contentHash: '', latencyMs: 1 },
      expectedTotal: undefined,
      advance,
      records: serialiseRecords([], []),
      derivation: null,
      highest: null,
      order: null,
    });
  };
  return { fetchPage, requested };
}

const at = (page: number): PagePosition => ({ page, offset: 0, pagesFetched: page - 1 });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PagesAhead', () => {
  it('keeps two pages on their way behind the one handed out, each asked for at the position the one before it ended', async () => {
    const { fetchPage, requested } = pagesUpTo(10);
    const pages = new PagesAhead(fetchPage, at(1), 0);

    const first = await pages.next();
    await settle();

    expect(first.envelope.requestUrl).toBe('page 1');
    expect(requested).toEqual([1, 2, 3]);
    expect((await pages.next()).envelope.requestUrl).toBe('page 2');
    await settle();
    expect(requested).toEqual([1, 2, 3, 4]);
  });

  it('asks for nothing after the last page', async () => {
    const { fetchPage, requested } = pagesUpTo(2);
    const pages = new PagesAhead(fetchPage, at(1), 0);

    await pages.next();
    const last = await pages.next();
    await settle();

    expect(last.advance.done).toBe(true);
    expect(requested).toEqual([1, 2]);
  });

  it('numbers pages after those a resumed run stored already', async () => {
    const { fetchPage, requested } = pagesUpTo(10);
    const pages = new PagesAhead(fetchPage, at(6), 5);

    expect((await pages.next()).envelope.requestUrl).toBe('page 6');
    await settle();
    expect(requested).toEqual([6, 7, 8]);
  });

  it('asks for no further page once stopped', async () => {
    const { fetchPage, requested } = pagesUpTo(10);
    let answerFirst: () => void = () => undefined;
    const held = (position: PagePosition, page: number) =>
      page === 1 ? new Promise<PreparedPage>((resolve) => (answerFirst = () => void fetchPage(position, page).then(resolve))) : fetchPage(position, page);
    const pages = new PagesAhead(held, at(1), 0);

    const first = pages.next();
    pages.stop();
    answerFirst();
    await first;
    await settle();

    expect(requested).toEqual([1]);
  });

  it('hands out a failed page as its error, in its turn', async () => {
    const pages = new PagesAhead((position, page) => (page === 2 ? Promise.reject(new Error('upstream down')) : pagesUpTo(10).fetchPage(position, page)), at(1), 0);

    expect((await pages.next()).envelope.requestUrl).toBe('page 1');
    await expect(pages.next()).rejects.toThrow('upstream down');
  });
});
