/*
 * Command lines `feedsync` must refuse, one a row, each with the flag, argument or variable its
 * message names. badArguments.system.test.ts runs them.
 */

export interface Row {
  what: string;
  /** `$config` and `$dir` stand for the valid config file and the rows' directory (in env values too, with `$databaseUrl` and `$redisUrl`: the test servers'). */
  args: string[];
  env?: Record<string, string | undefined>;
  /** The flag, argument or variable the message must name. */
  names: string;
  message: RegExp;
  /** Text the message must never hold (a password). */
  secret?: string;
  /** Text that must not follow the message (a crash after it). */
  never?: string;
}

const NO_SERVERS = { DATABASE_URL: 'postgres://127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1' };

export const badArgumentRows: Row[] = [
  { what: 'a query index that is a word', args: ['run', 'x', '--query', 'two'], names: '--query', message: /--query must be an integer from 0 to 2147483647, got "two"/ },
  { what: 'a negative query index', args: ['run', 'x', '--query', '-1'], names: '--query', message: /from 0 to 2147483647, got "-1"/ },
  { what: 'a query index past int32', args: ['run', 'x', '--query', '2147483648'], names: '--query', message: /got "2147483648"/ },
  { what: 'a fractional query index', args: ['run', 'x', '--query', '1.5'], names: '--query', message: /must be an integer/ },
  { what: 'a query index in exponent form', args: ['enqueue', 'x', '--query', '1e3'], names: '--query', message: /must be an integer/ },
  { what: 'a query flag without its value', args: ['run', 'x', '--query'], names: '--query', message: /argument missing/ },
  { what: 'a wait timeout that overflows a timer', args: ['enqueue', 'x', '--wait', '--timeout', '3000000'], names: '--timeout', message: /--timeout must be an integer from 0 to 2147483, got "3000000"/ },
  { what: 'a wait timeout that is a word', args: ['enqueue', 'x', '--wait', '--timeout', 'soon'], names: '--timeout', message: /got "soon"/ },
  { what: 'a status limit of 20 digits', args: ['status', '--limit', '99999999999999999999'], names: '--limit', message: /--limit must be an integer from 0 to 2147483647/ },
  { what: 'a negative status limit', args: ['status', '--limit', '-5'], names: '--limit', message: /got "-5"/ },
  { what: 'a notices limit of 20 digits', args: ['notices', 'list', '--limit', '99999999999999999999'], names: '--limit', message: /from 0 to 2147483647/ },
  { what: 'a hexadecimal notices limit', args: ['notices', '--limit', '0x10'], names: '--limit', message: /got "0x10"/ },
  { what: 'a simulator port past the last usable', args: ['simulate', '--port', '70000'], names: '--port', message: /--port must be an integer from 0 to 65532/ },
  { what: 'a simulator seed past 32 bits', args: ['simulate', '--seed', '4294967296'], names: '--seed', message: /from 0 to 4294967295/ },
  { what: 'a block interval that overflows a timer', args: ['simulate', '--block-interval-ms', '3000000000'], names: '--block-interval-ms', message: /from 0 to 2147483647/ },
  { what: 'a fault latency that overflows a timer', args: ['simulate', '--fault-latency-ms', '1e12'], names: '--fault-latency-ms', message: /from 0 to 2147483647/ },
  { what: 'a fault share above 1', args: ['simulate', '--fault-server-error', '2'], names: '--fault-server-error', message: /from 0 to 1/ },
  { what: 'no tags', args: ['simulate', '--tags', '0'], names: '--tags', message: /from 1 to 65535/ },
  { what: 'more artists than the simulator holds', args: ['simulate', '--artists', '20000000'], names: '--artists', message: /music\.artists/ },
  { what: 'an unknown Retry-After form', args: ['simulate', '--fault-retry-after-form', 'minutes'], names: '--fault-retry-after-form', message: /seconds or http-date/ },
  { what: 'an unknown fault endpoint', args: ['simulate', '--fault-endpoints', 'nope'], names: '--fault-endpoints', message: /comma-separated list/ },
  { what: 'an unknown option', args: ['run', 'x', '--frobnicate'], names: '--frobnicate', message: /unknown option/ },
  { what: 'a missing job name', args: ['run'], names: "'job'", message: /missing required argument/ },
  { what: 'a config that is a directory', args: ['config', 'check', '$dir/a-directory'], names: 'a-directory', message: /is a directory/ },
  { what: 'a config file that is not there', args: ['run', 'artists', '--config', '$dir/nowhere.yaml'], names: 'nowhere.yaml', message: /file not found/ },
  { what: 'DATABASE_URL that is no URL', args: ['migrate'], env: { DATABASE_URL: 'garbage' }, names: 'DATABASE_URL', message: /DATABASE_URL is not a URL/ },
  { what: 'DATABASE_URL set to the empty string', args: ['migrate'], env: { DATABASE_URL: '' }, names: 'DATABASE_URL', message: /DATABASE_URL is empty/ },
  { what: 'DATABASE_URL not set', args: ['migrate'], env: { DATABASE_URL: undefined }, names: 'DATABASE_URL', message: /DATABASE_URL is not set/ },
  { what: 'DATABASE_URL of another database', args: ['migrate'], env: { DATABASE_URL: 'mysql://app:s3cretpw@db/app' }, names: 'DATABASE_URL', message: /must be a postgres:\/\/ or postgresql:\/\/ URL/, secret: 's3cretpw' },
  { what: 'DATABASE_URL where nothing listens', args: ['migrate'], env: { DATABASE_URL: 'postgres://app:s3cretpw@127.0.0.1:1/app' }, names: 'DATABASE_URL', message: /could not connect to Postgres at 127\.0\.0\.1:1 \(DATABASE_URL\): ECONNREFUSED/, secret: 's3cretpw' },
  { what: 'REDIS_URL of another scheme', args: ['enqueue', 'artists', '--config', '$config'], env: { REDIS_URL: 'http://127.0.0.1:6379' }, names: 'REDIS_URL', message: /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/ },
  { what: 'REDIS_URL where nothing listens', args: ['enqueue', 'artists', '--config', '$config'], env: { REDIS_URL: 'redis://127.0.0.1:1' }, names: 'REDIS_URL', message: /could not connect to Redis at 127\.0\.0\.1:1 \(REDIS_URL\): ECONNREFUSED/ },
  { what: 'an optional REDIS_URL that is no URL', args: ['run', 'artists', '--config', '$config'], env: { ...NO_SERVERS, REDIS_URL: 'garbage' }, names: 'REDIS_URL', message: /REDIS_URL is not a URL/ },
  // Dates that are not days, and what export takes
  { what: 'a replay from the 31st of February', args: ['replay', '--job', 'artists', '--since', '2026-02-31'], names: '--since', message: /2026-02-31 is no day of the calendar\), got "2026-02-31"/ },
  { what: 'a replay from a date with junk after it', args: ['replay', '--job', 'artists', '--since', '2026-11-01junk'], names: '--since', message: /--since must be a date or time such as 2026-11-01 or 2026-11-01T02:00:00Z, got "2026-11-01junk"/ },
  { what: 'a replay from the 29th of February of a common year', args: ['replay', '--job', 'artists', '--since', '2025-02-29'], names: '--since', message: /no day of the calendar/ },
  { what: 'a replay from month 13', args: ['replay', '--kind', 'artist', '--since', '2026-13-01'], names: '--since', message: /no day of the calendar/ },
  { what: 'a replay from hour 24', args: ['replay', '--job', 'artists', '--since', '2026-11-01T24:00'], names: '--since', message: /a time of day from 00:00:00 to 23:59:59/ },
  { what: 'a replay from minute 60', args: ['replay', '--job', 'artists', '--since', '2026-11-01T02:60:00Z'], names: '--since', message: /a time of day/ },
  { what: 'a replay from a zone offset of 24 hours', args: ['replay', '--job', 'artists', '--since', '2026-11-01T02:00+24:00'], names: '--since', message: /a zone offset from -23:59 to \+23:59/ },
  { what: 'a replay since a word', args: ['replay', '--job', 'artists', '--since', 'yesterday'], names: '--since', message: /got "yesterday"/ },
  { what: 'a replay since a date in another order', args: ['replay', '--job', 'artists', '--since', '01/11/2026'], names: '--since', message: /got "01\/11\/2026"/ },
  { what: 'a replay since a timestamp in seconds', args: ['replay', '--job', 'artists', '--since', '1762000000'], names: '--since', message: /got "1762000000"/ },
  { what: 'an export format that does not exist', args: ['export', '--kind', 'artist', '--format', 'xml'], names: '--format', message: /--format must be one of jsonl, csv, got "xml"/, never: 'BigInt' },
  { what: 'an export since a negative change', args: ['export', '--kind', 'artist', '--since', '-1'], names: '--since', message: /--since must be a change_seq: an integer from 0, got "-1"/, never: 'BigInt' },
  { what: 'an export since past bigint', args: ['export', '--kind', 'artist', '--since', '9223372036854775808'], names: '--since', message: /a change_seq/, never: 'BigInt' },
  { what: 'an export since a word', args: ['export', '--kind', 'artist', '--since', 'start'], names: '--since', message: /got "start"/, never: 'BigInt' },
  { what: 'an export of an empty kind', args: ['export', '--kind', ''], names: '--kind', message: /--kind must not be empty/, never: 'BigInt' },

  // Settings from the environment, named with what they must be
  { what: 'a LOG_LEVEL that pino has not', args: ['run', 'artists', '--config', '$config'], env: { LOG_LEVEL: 'verbose', DATABASE_URL: '$databaseUrl', REDIS_URL: undefined }, names: 'LOG_LEVEL', message: /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"/ },
  { what: 'a DASHBOARD_USER with a colon', args: ['history', '--config', '$config', '--port', '0'], env: { DASHBOARD_USER: 'ops:team', DASHBOARD_PASSWORD: 'pw', DATABASE_URL: '$databaseUrl' }, names: 'DASHBOARD_USER', message: /must not contain ":".*no login could succeed/ },
  { what: 'DATABASE_URL with a user Postgres refuses', args: ['migrate'], env: { DATABASE_URL: '$databaseUrlAs:nobody:s3cretpw' }, names: 'DATABASE_URL', message: /Postgres refused the login of DATABASE_URL \(postgres:\/\/nobody:\*\*\*@.*role "nobody" does not exist/, secret: 's3cretpw' },
  { what: 'REDIS_URL with a user Redis refuses', args: ['enqueue', 'artists', '--config', '$config'], env: { REDIS_URL: '$redisUrlAs:nobody:s3cretpw' }, names: 'REDIS_URL', message: /Redis refused the login of REDIS_URL \(redis:\/\/nobody:\*\*\*@.*WRONGPASS/, secret: 's3cretpw' },
];
