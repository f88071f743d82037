import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HistoryPages } from '../history/HistoryPages.js';
import { authorized, BASIC_CHALLENGE, type BasicCredentials } from './basicAuth.js';
import { HISTORY_PAGES_CSP, securityHeaders } from './securityHeaders.js';

/** Answers a request for the history pages, behind basic auth; never cached. */
export async function answerHistoryRequest(request: IncomingMessage, response: ServerResponse, pages: HistoryPages, credentials: BasicCredentials): Promise<void> {
  if (!authorized(request.headers.authorization, credentials)) {
    response.writeHead(401, { ...BASIC_CHALLENGE, 'content-type': 'text/plain; charset=utf-8' }).end('authentication required\n');
    return;
  }
  const answer = await pages.answer(new URL(request.url ?? '/', 'http://history.invalid'));
  response
    .writeHead(answer.status, {
      'content-type': answer.contentType,
      'content-length': Buffer.byteLength(answer.body),
      'cache-control': 'no-store',
      ...securityHeaders(HISTORY_PAGES_CSP),
    })
    .end(request.method === 'HEAD' ? undefined : answer.body);
}
