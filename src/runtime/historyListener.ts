import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HistoryScreens } from '../history/HistoryScreens.js';
import { authorized, BASIC_CHALLENGE, type BasicCredentials } from './basicAuth.js';
import { HISTORY_SCREENS_CSP, securityHeaders } from './securityHeaders.js';

/** Answers a request for the history screens, behind basic auth; never cached. */
export async function answerHistoryRequest(request: IncomingMessage, response: ServerResponse, screens: HistoryScreens, credentials: BasicCredentials): Promise<void> {
  if (!authorized(request.headers.authorization, credentials)) {
    response.writeHead(401, { ...BASIC_CHALLENGE, 'content-type': 'text/plain; charset=utf-8' }).end('authentication required\n');
    return;
  }
  const answer = await screens.answer(new URL(request.url ?? '/', 'http://history.invalid'));
  response
    .writeHead(answer.status, {
      'content-type': answer.contentType,
      'content-length': Buffer.byteLength(answer.body),
      'cache-control': 'no-store',
      ...securityHeaders(HISTORY_SCREENS_CSP),
    })
    .end(request.method === 'HEAD' ? undefined : answer.body);
}
