import type { RequestAuth } from './RequestAuth.js';

/** An open API: nothing added. */
export function noAuth(): RequestAuth {
  return { headers: {}, queryParams: {} };
}
