import type { AuthConfig, AuthType } from '../../config/sources/authSchema.js';
import { basicAuth } from './basicAuth.js';
import { bearerAuth } from './bearerAuth.js';
import { headerAuth } from './headerAuth.js';
import { noAuth } from './noAuth.js';
import { queryAuth } from './queryAuth.js';
import type { RequestAuth } from './RequestAuth.js';

/** Each `auth.type` by name: a new style is a file and a line here (and its variant in authSchema). */
const authStyles: { readonly [Type in AuthType]: (auth: Extract<AuthConfig, { type: Type }>) => RequestAuth } = {
  bearer: bearerAuth,
  header: headerAuth,
  query: queryAuth,
  basic: basicAuth,
  none: noAuth,
};

/** What `auth` adds to every request of its source. */
export function requestAuthOf(auth: AuthConfig): RequestAuth {
  return (authStyles[auth.type] as (auth: AuthConfig) => RequestAuth)(auth);
}
