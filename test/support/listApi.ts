import { startLocalApi, type LocalApi } from './localApi.js';

/**
 * A local API serving, per path, the list a test sets for that path in `lists`, `perPage` items a
 * page (`?page=n`, from 1) as `{total, items}`; a path without a list has none.
 */
export function startListApi(lists: ReadonlyMap<string, unknown[]>, perPage = 2): Promise<LocalApi> {
  return startLocalApi((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const items = lists.get(url.pathname) ?? [];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ total: items.length, items: items.slice((page - 1) * perPage, page * perPage) }));
  });
}
