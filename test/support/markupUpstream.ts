import { startLocalApi, type LocalApi } from './localApi.js';

/** An upstream error message that would run script if a page wrote it as markup. */
export const HOSTILE_MESSAGE = '<script>window.__xss = 1</script><img src="x" onerror="window.__xss = 2">no such query';

/** An upstream of the contract's envelope: `q=ok` answers one record, `q=dirty` one and one whose key Postgres cannot take, anything else a 400 whose message is markup. */
export function startMarkupUpstream(): Promise<LocalApi> {
  return startLocalApi((request, response) => {
    const q = new URL(request.url ?? '/', 'http://upstream').searchParams.get('q');
    const ok = q === 'ok' || q === 'dirty';
    const items = q === 'dirty' ? [{ id: 'one', name: 'One' }, { id: 'nul\u0000key', name: 'Two' }] : [{ id: 'one', name: 'One' }];
    const body = ok ? { status: 'success', data: { items }, message: 'ok' } : { status: 'error', data: null, message: HOSTILE_MESSAGE };
    response.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
}
