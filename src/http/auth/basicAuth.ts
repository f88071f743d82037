import type { AuthConfig } from '../../config/sources/authSchema.js';
import type { RequestAuth } from './RequestAuth.js';

/** HTTP basic auth (RFC 7617): base64 of "user:password", in UTF-8. */
export function basicAuth(auth: Extract<AuthConfig, { type: 'basic' }>): RequestAuth {
  const token = Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64');
  return { headers: { authorization: `Basic ${token}` }, queryParams: {} };
}
