import type { IncomingHttpHeaders } from 'node:http';

/** True when the request carries `Authorization: Bearer <key>` with one of the valid keys. */
export function hasValidApiKey(headers: IncomingHttpHeaders, validKeys: ReadonlySet<string>): boolean {
  const authorization = headers.authorization;
  if (authorization === undefined) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match !== null && validKeys.has(match[1]!);
}
