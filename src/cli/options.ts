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

const URL_SCHEMES = {
  DATABASE_URL: { service: 'Postgres', schemes: ['postgres:', 'postgresql:'], example: 'postgres://user:password@host:5432/database' },
  REDIS_URL: { service: 'Redis', schemes: ['redis:', 'rediss:'], example: 'redis://host:6379' },
} as const;

type ServerVariable = keyof typeof URL_SCHEMES;

/** DATABASE_URL / REDIS_URL, checked to be a URL of the right scheme, with a message that says how to get one. */
export function requireEnv(name: ServerVariable): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is ${value === '' ? 'empty' : 'not set'}. Point it at a running server (see README "Configuration"), start one with \`docker compose up -d\`, or try everything on throwaway servers with \`npm run demo\`.`,
    );
  }
  return checkedServerUrl(name, value);
}

/** A variable that may be left unset (or empty), checked like requireEnv when it is set. */
export function optionalEnv(name: ServerVariable): string | undefined {
  const value = process.env[name];
  return value ? checkedServerUrl(name, value) : undefined;
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
