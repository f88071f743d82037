import type { AuthConfig } from '../../config/sources/authSchema.js';
import type { RequestAuth } from './RequestAuth.js';

/** A key in the query string (Last.fm's `api_key`, Etherscan's `apikey`). */
export function queryAuth(auth: Extract<AuthConfig, { type: 'query' }>): RequestAuth {
  return { headers: {}, queryParams: { [auth.name]: auth.value } };
}
