import { timingSafeEqual } from 'node:crypto';

/** Credentials of the dashboard and the history pages (DASHBOARD_USER / DASHBOARD_PASSWORD). */
export interface BasicCredentials {
  user: string;
  password: string;
}

/** The header a 401 answers with, so that a browser asks for the credentials. */
export const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="feedsync"' };

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether an Authorization header carries these credentials; the scheme's name is case-insensitive (RFC 7617). */
export function authorized(header: string | undefined, credentials: BasicCredentials): boolean {
  const [, scheme, encoded] = /^(\S+) +(\S+)\s*$/.exec(header ?? '') ?? [];
  const [givenUser, ...rest] = scheme?.toLowerCase() === 'basic' && encoded ? Buffer.from(encoded, 'base64').toString().split(':') : [];
  return givenUser !== undefined && sameSecret(givenUser, credentials.user) && sameSecret(rest.join(':'), credentials.password);
}
