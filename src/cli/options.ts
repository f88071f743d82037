import { InvalidArgumentError } from 'commander';

/** Parses a non-negative integer CLI argument, naming the flag when it is not one. */
export function nonNegativeInteger(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${flag} must be a non-negative integer, got "${value}"`);
    return Number(value);
  };
}

/** DATABASE_URL / REDIS_URL, with a message that says how to get one. */
export function requireEnv(name: 'DATABASE_URL' | 'REDIS_URL'): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set. Point it at a running server (see README "Configuration"), start one with \`docker compose up -d\`, or try everything on throwaway servers with \`npm run demo\`.`);
  }
  return value;
}
