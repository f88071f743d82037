import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '../../src/http/SourceClient.js';
import type { PagePosition } from '../../src/paging/Paginator.js';
import { PagesAhead, type PageSource, type PreparedPage } from '../../src/sync/PagesAhead.js';
import { serialiseRecords } from '../../src/storage/records/serialiseRecords.js';

const at = (page: number): PagePosition => ({ page, offset: 0, pagesFetched: page - 1 });
const settle = () => new Promise((resolve) => setImmediate(resolve));

interface Request {
  page: number;
  /** The position asked for. */
  position: number;
  /** Set once the request was dropped as a wrong guess or after the run. */
  dropped: AbortSignal | undefined;
  answer(): void;
  fail(error: Error): void;
}

/**
 * Pages 1..last, each at position {page: n}, the last one ending paging; records each request and
 * answers it at once, or when the test says (`held`). `guesses`: whether the source can guess the
 * next position (the page after), as page paging can.
 */
function pagesUpTo(last: number, options: { guesses?: boolean; held?: boolean; guess?: (page: number) => number } = {}) {
  const requests: Request[] = [];
  const source: PageSource = {
    fetch: (position, page, dropped) =>
      new Promise<FetchedPage>((resolve, reject) => {
        const fetched: FetchedPage = { url: `page ${position.page}`, link: undefined, raw: '{}', bytes: 2, contentHash: '', envelope: { status: 'success', data: {}, message: '' }, latencyMs: 1, secretsScrubbed: 0 };
        const request: Request = { page, position: position.page, dropped, answer: () => resolve(fetched), fail: reject };
        requests.push(request);
        if (!options.held) request.answer();
      }),
    prepare: (position, page): PreparedPage => {
      expect(position.page).toBe(page);
      const advance = page >= last ? { done: true as const, reason: 'short_page' as const, position: at(page + 1) } : { done: false as const, position: at(page + 1) };
      return {
        envelope: { requestUrl: `page ${page}`, raw: '{}', status: 'success', message: '', bytes: 2, contentHash: '', latencyMs: 1 },
        expectedTotal: undefined,
        advance,
        records: serialiseRecords([], []),
        derivation: null,
        highest: null,
        order: null,
      };
    },
    guessNext: (position) => (options.guesses ? at(options.guess ? options.guess(position.page) : position.page + 1) : undefined),
    sameRequest: (a, b) => a.page === b.page,
  };
  const requested = () => requests.map((request) => request.position);
  const answer = async (position: number) => {
    requests.find((request) => request.position === position)!.answer();
    await settle();
  };
  return { source, requests, requested, answer };
}

/** A run of 10 guessable pages, each answered when the test says, its first page handed out. */
async function pastFirstPage() {
  const upstream = pagesUpTo(10, { guesses: true, held: true });
  const pages = new PagesAhead(upstream.source, at(1), 0);
  const first = pages.next();
  await upstream.answer(1);
  await first;
  return { ...upstream, pages };
}

describe('PagesAhead', () => {
  it('keeps two pages on their way behind the one handed out, each asked for at the position the one before it ended', async () => {
    const { source, requested } = pagesUpTo(10);
    const pages = new PagesAhead(source, at(1), 0);

    const first = await pages.next();
    await settle();

    expect(first.envelope.requestUrl).toBe('page 1');
    expect(requested()).toEqual([1, 2, 3]);
    expect((await pages.next()).envelope.requestUrl).toBe('page 2');
    await settle();
    expect(requested()).toEqual([1, 2, 3, 4]);
  });

  it('asks for nothing after the last page', async () => {
    const { source, requested } = pagesUpTo(2, { guesses: true });
    const pages = new PagesAhead(source, at(1), 0);

    await pages.next();
    const last = await pages.next();
    await settle();

    expect(last.advance.done).toBe(true);
    expect(requested()).toEqual([1, 2]);
  });

  it('numbers pages after those a resumed run stored already', async () => {
    const { source, requested } = pagesUpTo(10);
    const pages = new PagesAhead(source, at(6), 5);

    expect((await pages.next()).envelope.requestUrl).toBe('page 6');
    await settle();
    expect(requested()).toEqual([6, 7, 8]);
  });

  it('asks for no further page once stopped', async () => {
    const { source, requested, answer } = pagesUpTo(10, { held: true });
    const pages = new PagesAhead(source, at(1), 0);

    const first = pages.next();
    pages.stop();
    await answer(1);
    await first;
    await settle();

    expect(requested()).toEqual([1]);
  });

  it('hands out a failed page as its error, in its turn', async () => {
    const { source } = pagesUpTo(10);
    const failing: PageSource = { ...source, fetch: (position, page, dropped) => (page === 2 ? Promise.reject(new Error('upstream down')) : source.fetch(position, page, dropped)) };
    const pages = new PagesAhead(failing, at(1), 0);

    expect((await pages.next()).envelope.requestUrl).toBe('page 1');
    await expect(pages.next()).rejects.toThrow('upstream down');
  });

  it('once two full pages were read, asks for the next page on a guess while the page before it is still on its way', async () => {
    const { pages, requested, answer } = await pastFirstPage();

    const second = pages.next();
    expect(requested()).toEqual([1, 2]);
    await answer(2);
    await second;
    expect(requested()).toEqual([1, 2, 3, 4]);
  });

  it('guesses at no page beyond the pages it keeps ahead: while stores are the slower side, it asks for no more', async () => {
    const { requested, answer } = await pastFirstPage();

    await answer(2);

    expect(requested()).toEqual([1, 2, 3]);
  });

  it('asks on a guess for a page that becomes wanted while the page before it is still on its way: the run waits on the upstream', async () => {
    const { pages, requests, requested, answer } = await pastFirstPage();
    await answer(2);

    void pages.next();

    expect(requested()).toEqual([1, 2, 3, 4]);
    expect(requests[3]!.dropped).toBeDefined();
    await answer(3);
    await answer(4);
    await pages.next();
    expect((await pages.next()).envelope.requestUrl).toBe('page 4');
    expect(requested().filter((position) => position === 4)).toHaveLength(1);
  });

  it('guesses at no page after one that failed', async () => {
    const { pages, requests, requested, answer } = await pastFirstPage();
    await answer(2);
    requests.find((request) => request.position === 3)!.fail(new Error('401 bad key'));
    await settle();

    await pages.next();

    expect(requested()).toEqual([1, 2, 3]);
    await expect(pages.next()).rejects.toThrow('401 bad key');
  });

  it('uses a right guess as the page, without asking for it again', async () => {
    const { source, requests, requested } = pagesUpTo(10, { guesses: true });
    const pages = new PagesAhead(source, at(1), 0);

    const urls: string[] = [];
    for (let page = 1; page <= 6; page++) urls.push((await pages.next()).envelope.requestUrl);
    await settle();

    expect(urls).toEqual(['page 1', 'page 2', 'page 3', 'page 4', 'page 5', 'page 6']);
    expect(new Set(requested()).size).toBe(requested().length);
    // Pages 1-3 were asked for where the page before said; every later one on a guess, none dropped.
    expect(requests.filter((request) => request.dropped === undefined).map((request) => request.page)).toEqual([1, 2, 3]);
    expect(requests.filter((request) => request.dropped?.aborted)).toHaveLength(0);
  });

  it('hands out a used guess that failed as its page’s error, in its turn', async () => {
    const { source } = pagesUpTo(10, { guesses: true });
    const failing: PageSource = { ...source, fetch: (position, page, dropped) => (page === 4 && dropped ? Promise.reject(new Error('page 4 lost')) : source.fetch(position, page, dropped)) };
    const pages = new PagesAhead(failing, at(1), 0);

    for (let page = 1; page <= 3; page++) await pages.next();
    await expect(pages.next()).rejects.toThrow('page 4 lost');
  });

  it('guesses no more in a run after a wrong guess', async () => {
    const { source, requests } = pagesUpTo(10, { guesses: true, guess: (page) => page + 2 });
    const pages = new PagesAhead(source, at(1), 0);

    for (let page = 1; page <= 8; page++) await pages.next();
    await settle();

    expect(requests.filter((request) => request.dropped !== undefined)).toHaveLength(1);
  });

  it('drops a wrong guess and asks for the page where the page before it said', async () => {
    const { source, requests } = pagesUpTo(10, { guesses: true, guess: (page) => page + 2 });
    const pages = new PagesAhead(source, at(1), 0);

    for (let page = 1; page <= 5; page++) expect((await pages.next()).envelope.requestUrl).toBe(`page ${page}`);
    await settle();

    const guessedForPage4 = requests.find((request) => request.page === 4 && request.position === 5)!;
    expect(guessedForPage4.dropped?.aborted).toBe(true);
    expect(requests.filter((request) => request.page === 4 && request.position === 4)).toHaveLength(1);
  });

  it('drops the guess made past the last page, and its failure goes nowhere', async () => {
    const { source, requests } = pagesUpTo(4, { guesses: true });
    const failingPastEnd: PageSource = { ...source, fetch: (position, page, dropped) => (position.page === 5 ? (source.fetch(position, page, dropped), Promise.reject(new Error('no page 5'))) : source.fetch(position, page, dropped)) };
    const pages = new PagesAhead(failingPastEnd, at(1), 0);

    for (let page = 1; page <= 4; page++) await pages.next();
    await settle();

    expect(requests.find((request) => request.position === 5)?.dropped?.aborted).toBe(true);
  });

  it('drops a guess still on its way when stopped', async () => {
    const { pages, requests, answer } = await pastFirstPage();

    void pages.next();
    await answer(2);
    pages.stop();

    expect(requests.find((request) => request.position === 4)?.dropped?.aborted).toBe(true);
  });
});
