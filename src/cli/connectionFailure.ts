import { isIP } from 'node:net';

/** What each failed connection code means to a person. */
const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing is listening there',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
};

const SERVERS = [
  { variable: 'DATABASE_URL', service: 'Postgres', defaultPort: 5432 },
  { variable: 'REDIS_URL', service: 'Redis', defaultPort: 6379 },
  { variable: 'REDIS_CLUSTER_NODES', service: 'Redis', defaultPort: 6379 },
  { variable: 'REDIS_SENTINELS', service: 'Redis Sentinel', defaultPort: 26379 },
] as const;

/** The fields Node sets on a failed connect (address, port) or name lookup (hostname). */
interface SocketError {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  errors?: unknown;
}

/**
 * For a failed connection (as Postgres and Redis clients report it), a line saying which server,
 * where, through which variable, and why: `could not connect to Postgres at 127.0.0.1:5
 * (DATABASE_URL): ECONNREFUSED (nothing is listening there)`. Undefined for any other error. The
 * place comes from the error, never from the URL, which may hold a password.
 */
export function describeConnectionFailure(error: unknown, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  // With both an IPv6 and an IPv4 address, Node tries each and reports an AggregateError of both.
  const tried = Array.isArray((error as SocketError).errors) ? ((error as SocketError).errors as SocketError[]) : [];
  const socketError = [error as SocketError, ...tried].find((candidate) => typeof candidate.code === 'string' && candidate.code in CONNECTION_CODES);
  const code = socketError?.code as string | undefined;
  const place = socketError && placeOf(tried.find((candidate) => candidate.address !== undefined) ?? socketError);
  if (!code || !place) return undefined;
  const servers = SERVERS.filter(({ variable, defaultPort }) => pointsAt(env[variable], defaultPort, place));
  const [server] = servers;
  // Two variables pointing at one place (a mistake in itself) leave the server unknown.
  const where = servers.length === 1 && server ? `${server.service} at ${place.text} (${server.variable})` : `${place.text}${server ? ` (${servers.map((s) => s.variable).join(' or ')})` : ''}`;
  return `could not connect to ${where}: ${code} (${CONNECTION_CODES[code]})`;
}

/** Postgres's SQLSTATEs for a login it refused: a wrong password, an unknown role or a pg_hba rule. */
const POSTGRES_LOGIN_CODES = new Set(['28P01', '28000']);
/** How Redis answers AUTH with wrong credentials, or a command sent without them. */
const REDIS_LOGIN_REPLY = /^(WRONGPASS|NOAUTH)\b/;

/**
 * For a login the server refused, a line naming the variable and its URL with the password masked:
 * `Postgres refused the login of DATABASE_URL (postgres://app:***@db:5432/app): password
 * authentication failed for user "app"`. Undefined for any other error.
 */
export function describeLoginFailure(error: unknown, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const redis = SERVERS.slice(1).find(({ variable }) => env[variable]) ?? SERVERS[1];
  const server = typeof code === 'string' && POSTGRES_LOGIN_CODES.has(code) ? SERVERS[0] : REDIS_LOGIN_REPLY.test(error.message) ? redis : undefined;
  if (!server) return undefined;
  const urls = env[server.variable];
  return `${server.service} refused the login of ${server.variable}${urls ? ` (${urls.split(',').map((url) => maskedUrl(url.trim())).join(',')})` : ''}: ${error.message}; check the user name and password in it`;
}

/** The URL with its password as ***; one that does not parse is not shown at all. */
function maskedUrl(url: string): string {
  if (!URL.canParse(url)) return 'not a URL';
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.href;
}

interface Place {
  text: string;
  host: string;
  port: number | undefined;
}

function placeOf(error: SocketError): Place | undefined {
  if (typeof error.address === 'string' && typeof error.port === 'number') {
    const host = error.address;
    return { text: `${isIP(host) === 6 ? `[${host}]` : host}:${error.port}`, host, port: error.port };
  }
  if (typeof error.hostname === 'string') return { text: error.hostname, host: error.hostname, port: undefined };
  return undefined;
}

/** Whether a server URL (or one of a comma-separated list) names this place; a host name cannot be compared to an address, so its port decides. */
function pointsAt(urls: string | undefined, defaultPort: number, place: Place): boolean {
  return (urls ?? '').split(',').some((url) => urlPointsAt(url.trim(), defaultPort, place));
}

function urlPointsAt(url: string, defaultPort: number, place: Place): boolean {
  if (!URL.canParse(url)) return false;
  const { hostname, port } = new URL(url);
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (place.port === undefined) return host === place.host;
  return (Number(port) || defaultPort) === place.port && (host === place.host || isIP(host) === 0);
}
