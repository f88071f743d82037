import type { ResponsePreset } from './responseShape.js';

/**
 * Last.fm's API 2.0 with `format=json`: the body is the data; an error is `{error: <code>,
 * message}`, with HTTP 200 or 4xx. Codes from https://www.last.fm/api/errorcodes.
 */
export const lastfmPreset: ResponsePreset = {
  successValues: [],
  dataPath: '.',
  messagePath: 'message',
  errorCodePath: 'error',
  emptyMessages: [],
  /** 29: rate limit exceeded. */
  rateLimitedCodes: ['29'],
  /** 11: service offline; 16: temporary error; 8: operation failed (a backend error). */
  temporaryCodes: ['8', '11', '16'],
  /** 9: invalid session key (a method signed with a session sends it, HTTP 200 or 403); 10: invalid API key; 26: suspended API key. */
  authCodes: ['9', '10', '26'],
};
