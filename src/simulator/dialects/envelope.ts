import type { IncomingHttpHeaders } from 'node:http';
import type { ExplorerAnswer, ExplorerWire } from '../explorer/explorerWire.js';
import type { MusicAnswer, MusicWire } from '../music/musicWire.js';
import { MAX_LIMIT, pagingTotals } from '../server/paging.js';
import { errorReply, successReply, successReplyFromDataJson, type Reply, type SimRequest } from '../server/reply.js';
import { LASTFM_ERROR, LASTFM_MESSAGE } from './lastfmErrorCodes.js';

/** The key from `Authorization: Bearer <key>`; undefined without one. */
export function bearerKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match === null ? undefined : match[1];
}

const keyFromBearer = (request: SimRequest): string | undefined => bearerKeyOf(request.headers);

/** Music in the feedsync envelope: `data` holds the paging totals and the Last.fm-shaped payload; errors carry Last.fm codes. */
export const envelopeMusicWire: MusicWire = {
  apiKeyOf: keyFromBearer,
  readParams: (_method, params) => ({ ok: true, value: params }),
  reply: envelopeMusicReply,
  faultReplies: {
    outage: () => errorReply(503, LASTFM_ERROR.serviceOffline, LASTFM_MESSAGE.serviceOffline),
    serverError: (status) => errorReply(status, LASTFM_ERROR.serviceOffline, LASTFM_MESSAGE.serviceOffline),
    tooManyRequests: () => errorReply(429, LASTFM_ERROR.rateLimitExceeded, LASTFM_MESSAGE.rateLimitExceeded),
    errorEnvelope: (pick) =>
      pick < 0.5
        ? errorReply(200, LASTFM_ERROR.rateLimitExceeded, 'Rate Limit Exceeded')
        : errorReply(200, LASTFM_ERROR.temporaryError, LASTFM_MESSAGE.temporaryError),
  },
};

function envelopeMusicReply(answer: MusicAnswer): Reply {
  switch (answer.kind) {
    case 'record':
      // A single record still carries paging totals (one item on one page).
      return successReply({ page: 1, perPage: 1, total: 1, totalPages: 1, [answer.key]: answer.record });
    case 'listing': {
      const nested = answer.path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), answer.items) as Record<string, unknown>;
      return successReply({ ...pagingTotals(answer.slice), ...nested });
    }
    case 'noRoute':
      return errorReply(404, LASTFM_ERROR.invalidMethod, `No route ${answer.path}`);
    case 'methodNotAllowed':
      return errorReply(405, LASTFM_ERROR.invalidMethod, 'Only GET is supported');
    case 'invalidKey':
      return errorReply(401, LASTFM_ERROR.invalidApiKey, 'Invalid API key');
    case 'suspendedKey':
      return errorReply(403, LASTFM_ERROR.suspendedApiKey, LASTFM_MESSAGE.suspendedApiKey);
    case 'unknownMethod':
      return errorReply(400, LASTFM_ERROR.invalidMethod, `Invalid Method - No method with the name "${answer.name}"`);
    case 'invalidParams':
      return errorReply(400, LASTFM_ERROR.invalidParameters, `Invalid parameters - ${answer.message}`);
    case 'notFound':
      // As Last.fm does: HTTP 200, error 6.
      return errorReply(200, LASTFM_ERROR.invalidParameters, `The ${answer.what} you supplied could not be found`);
  }
}

/** The explorer in the feedsync envelope: listings carry paging totals next to `result`; errors carry string codes. */
export const envelopeExplorerWire: ExplorerWire = {
  path: '/api',
  apiKeyOf: keyFromBearer,
  actionParams: (params) => params,
  maxPageSize: MAX_LIMIT,
  reply: envelopeExplorerReply,
  faultReplies: {
    outage: () => errorReply(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable'),
    serverError: (status) => errorReply(status, 'SERVER_ERROR', `Upstream server error (${status})`),
    tooManyRequests: () => errorReply(429, 'RATE_LIMIT', 'Max rate limit reached, please slow down'),
    errorEnvelope: () => errorReply(200, 'NOTOK', 'Max rate limit reached'),
  },
};

function envelopeExplorerReply(answer: ExplorerAnswer): Reply {
  switch (answer.kind) {
    case 'listing': {
      const { page, perPage, total, totalPages } = answer.slice;
      return successReplyFromDataJson(`{"page":${page},"perPage":${perPage},"total":${total},"totalPages":${totalPages},"result":[${answer.itemsJson}]}`);
    }
    case 'result':
      return successReplyFromDataJson(`{"result":${answer.resultJson}}`);
    case 'headBlock':
      return successReply({ result: answer.number });
    case 'noRoute':
      return errorReply(404, 'NOT_FOUND', `No route ${answer.path}`);
    case 'methodNotAllowed':
      return errorReply(405, 'METHOD_NOT_ALLOWED', 'Only GET is supported');
    case 'invalidKey':
      return errorReply(401, 'INVALID_API_KEY', 'Invalid API Key');
    case 'unknownAction':
      return errorReply(400, 'UNKNOWN_ACTION', `Unknown module/action "${answer.name}"`);
    case 'invalidParams':
      return errorReply(400, 'INVALID_PARAMS', answer.message);
    case 'notFound':
      return errorReply(200, 'NOT_FOUND', answer.message);
    case 'windowTooLarge':
      return errorReply(200, 'WINDOW_TOO_LARGE', `Result window is too large, PageNo x Offset size must be less than or equal to ${answer.window}`);
    case 'notAContract':
      return errorReply(200, 'NOT_A_CONTRACT', 'Contract source code not verified');
  }
}
