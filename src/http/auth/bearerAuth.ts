import type { AuthConfig } from '../../config/sources/authSchema.js';
import type { RequestAuth } from './RequestAuth.js';

/** `Authorization: Bearer <key>`: the contract's. */
export function bearerAuth(auth: Extract<AuthConfig, { type: 'bearer' }>): RequestAuth {
  return { headers: { authorization: `Bearer ${auth.value}` }, queryParams: {} };
}
