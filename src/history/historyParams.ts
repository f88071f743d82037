/** A query parameter of the history page that is not as it must be; answered 400. */
export class HistoryParamError extends Error {
  override readonly name = 'HistoryParamError';
}

/** The highest page number a list may be asked for. */
const MAX_PAGE = 100_000;

/**
 * Reads a request's query parameters: only those named are allowed, each at most once; `page`
 * must be a whole number from 1 to 100,000; `status` one of the allowed values.
 */
export function readParams(search: URLSearchParams, allowed: { page?: boolean; statuses?: readonly string[] }): { page: number; status: string | undefined } {
  const names = new Set<string>();
  for (const name of search.keys()) {
    const known = (name === 'page' && allowed.page) || (name === 'status' && allowed.statuses);
    if (!known) throw new HistoryParamError(`unknown query parameter ${JSON.stringify(name)}${allowed.page || allowed.statuses ? `; this page takes ${[allowed.page && 'page', allowed.statuses && 'status'].filter(Boolean).join(' and ')}` : '; this page takes none'}`);
    if (names.has(name)) throw new HistoryParamError(`query parameter ${name} is given more than once`);
    names.add(name);
  }
  const pageText = search.get('page');
  let page = 1;
  if (pageText !== null) {
    if (!/^\d{1,6}$/.test(pageText) || Number(pageText) < 1 || Number(pageText) > MAX_PAGE) {
      throw new HistoryParamError(`query parameter page must be a whole number from 1 to ${MAX_PAGE.toLocaleString('en-US')}, not ${JSON.stringify(pageText)}`);
    }
    page = Number(pageText);
  }
  const status = search.get('status') ?? undefined;
  if (status !== undefined && !allowed.statuses?.includes(status)) {
    throw new HistoryParamError(`query parameter status must be one of ${allowed.statuses?.join(', ')}, not ${JSON.stringify(status)}`);
  }
  return { page, status };
}
