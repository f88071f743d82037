import type { AuthConfig } from '../../config/sources/authSchema.js';
import type { RequestAuth } from './RequestAuth.js';

/** A key in a header of its own, such as `X-API-Key`. */
export function headerAuth(auth: Extract<AuthConfig, { type: 'header' }>): RequestAuth {
  return { headers: { [auth.name.toLowerCase()]: auth.value }, queryParams: {} };
}
