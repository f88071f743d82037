import { InvalidArgumentError } from 'commander';

/** Parses an integer CLI argument from `min` to `max`, naming the flag and the range when it is not one. */
export function integerFlag(flag: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(parsed >= min && parsed <= max)) throw new InvalidArgumentError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`);
    return parsed;
  };
}

/** Parses a decimal CLI argument (fractions allowed) from `min` to `max`, naming the flag and the range. */
export function numberFlag(flag: string, min: number, max: number, example = '') {
  return (value: string): number => {
    const parsed = value.trim() === '' ? Number.NaN : Number(value);
    if (!(parsed >= min && parsed <= max)) throw new InvalidArgumentError(`${flag} must be a number from ${min} to ${max}${example}, got "${value}"`);
    return parsed;
  };
}

/** A CLI argument that must not be empty, naming the flag when it is. */
export function nonEmptyFlag(flag: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${flag} must not be empty`);
    return value;
  };
}

/** 2026-11-01, or a time on it: 2026-11-01T02:00, …:00Z, …:00.5+01:00 (a space for the T too). */
const DATE_OR_TIME = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(Z|[+-]\d\d:\d\d)?)?$/;

/**
 * A date or time CLI argument, naming the flag when it is not one. `new Date` alone rolls
 * 2026-02-31 over into March and reads a prefix of `2026-11-01junk`: every field is checked.
 */
export function dateFlag(flag: string) {
  return (value: string): Date => {
    const refuse = (why: string) => new InvalidArgumentError(`${flag} must be a date or time such as 2026-11-01 or 2026-11-01T02:00:00Z${why}, got "${value}"`);
    const fields = DATE_OR_TIME.exec(value);
    if (!fields) throw refuse('');
    const [year, month, day, hour, minute, second] = fields.slice(1, 7).map((field) => Number(field ?? 0)) as [number, number, number, number, number, number];
    const calendar = new Date(Date.UTC(year, month - 1, day));
    if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) throw refuse(` (${value.slice(0, 10)} is no day of the calendar)`);
    if (hour > 23 || minute > 59 || second > 59) throw refuse(' (a time of day from 00:00:00 to 23:59:59)');
    // Without a zone, a time is UTC (as a date alone is), not the local time `new Date` would take.
    const [, , , , time, , , zone] = fields;
    const date = new Date(time === undefined ? value : `${value.replace(' ', 'T')}${zone === undefined ? 'Z' : ''}`);
    // What the fields leave to Date: a zone offset past ±23:59.
    if (Number.isNaN(date.getTime())) throw refuse(' (a zone offset from -23:59 to +23:59)');
    return date;
  };
}

/**
 * DASHBOARD_USER / DASHBOARD_PASSWORD, when both are set. Basic auth splits user from password at
 * the first ":", so a user name holding one could never log in: refused at start.
 */
export function dashboardCredentials(): { user: string; password: string } | undefined {
  const { DASHBOARD_USER: user, DASHBOARD_PASSWORD: password } = process.env;
  if (user?.includes(':')) throw new Error('DASHBOARD_USER must not contain ":": basic auth splits the user name from the password there, so no login could succeed');
  return user && password ? { user, password } : undefined;
}

const URL_SCHEMES = {
  DATABASE_URL: { service: 'Postgres', schemes: ['postgres:', 'postgresql:'], example: 'postgres://user:password@host:5432/database' },
  REDIS_URL: { service: 'Redis', schemes: ['redis:', 'rediss:'], example: 'redis://host:6379' },
  REDIS_CLUSTER_NODES: { service: 'a Redis Cluster', schemes: ['redis:', 'rediss:'], example: 'redis://host1:6379,redis://host2:6379' },
  REDIS_SENTINELS: { service: 'Redis Sentinels', schemes: ['redis:', 'rediss:'], example: 'redis://host1:26379,redis://host2:26379' },
} as const;

export type ServerVariable = keyof typeof URL_SCHEMES;

/** DATABASE_URL / REDIS_URL, checked to be a URL of the right scheme, with a message that says how to get one. */
export function requireEnv(name: ServerVariable): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is ${value === '' ? 'empty' : 'not set'}. Point it at a running server (see docs/configuration.md), start one with \`docker compose up -d\`, or try everything on throwaway servers with \`npm run demo\`.`,
    );
  }
  return checkedServerUrl(name, value);
}

/** A comma-separated list of URLs (seed nodes, Sentinels), each checked like requireEnv's. */
export function checkedServerUrls(name: ServerVariable, value: string): string[] {
  const urls = value.split(',').map((url) => url.trim());
  if (urls.some((url) => url === '')) throw new Error(`${name} has an empty entry; list URLs separated by commas, e.g. ${URL_SCHEMES[name].example}`);
  return urls.map((url) => checkedServerUrl(name, url));
}

/** The URL may hold a password: messages name the variable and the scheme, never the value. */
function checkedServerUrl(name: ServerVariable, value: string): string {
  const { service, schemes, example } = URL_SCHEMES[name];
  if (!URL.canParse(value)) throw new Error(`${name} is not a URL; point it at ${service}, e.g. ${example}`);
  const { protocol } = new URL(value);
  // Not even the scheme is quoted: a value such as `user:password@host` parses as scheme `user:`.
  if (!(schemes as readonly string[]).includes(protocol)) throw new Error(`${name} must be a ${schemes.map((scheme) => `${scheme}//`).join(' or ')} URL, e.g. ${example}`);
  return value;
}
