import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeConnectionFailure } from '../../src/cli/connectionFailure.js';
import { reportCliError } from '../../src/cli/reportCliError.js';

/** A connect error as Node's net module makes it. */
const refused = (address: string, port: number) => Object.assign(new Error(`connect ECONNREFUSED ${address}:${port}`), { code: 'ECONNREFUSED', syscall: 'connect', address, port });
const notFound = (hostname: string) => Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
const env = { DATABASE_URL: 'postgres://app:s3cret@db.internal:5433/app', REDIS_URL: 'redis://127.0.0.1:6379' };

describe('describeConnectionFailure', () => {
  it('names the server and the variable that points at the refusing address', () => {
    expect(describeConnectionFailure(refused('127.0.0.1', 6379), env)).toBe('could not connect to Redis at 127.0.0.1:6379 (REDIS_URL): ECONNREFUSED (nothing is listening there)');
  });

  it('matches a host name to an address by its port, the default port included', () => {
    expect(describeConnectionFailure(refused('10.0.0.5', 5433), env)).toMatch(/^could not connect to Postgres at 10\.0\.0\.5:5433 \(DATABASE_URL\)/);
    expect(describeConnectionFailure(refused('10.0.0.5', 5432), { DATABASE_URL: 'postgres://db/app' })).toMatch(/Postgres at 10\.0\.0\.5:5432 \(DATABASE_URL\)/);
  });

  it('names the host that could not be found', () => {
    expect(describeConnectionFailure(notFound('db.internal'), env)).toBe('could not connect to Postgres at db.internal (DATABASE_URL): ENOTFOUND (no such host)');
  });

  it('reads the addresses Node tried one after the other (an AggregateError)', () => {
    const both = Object.assign(new AggregateError([refused('::1', 6379), refused('127.0.0.1', 6379)], ''), { code: 'ECONNREFUSED' });
    expect(describeConnectionFailure(both, { REDIS_URL: 'redis://localhost' })).toMatch(/^could not connect to Redis at \[::1\]:6379 \(REDIS_URL\): ECONNREFUSED/);
  });

  it('says only where when no variable points there', () => {
    expect(describeConnectionFailure(refused('10.9.9.9', 80), env)).toBe('could not connect to 10.9.9.9:80: ECONNREFUSED (nothing is listening there)');
  });

  it('leaves any other error alone', () => {
    expect(describeConnectionFailure(new Error('relation "x" does not exist'), env)).toBeUndefined();
    expect(describeConnectionFailure('ECONNREFUSED', env)).toBeUndefined();
  });
});

describe('reportCliError', () => {
  let written = '';
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    written = '';
  });
  const report = (error: unknown) => {
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written += String(chunk);
      return true;
    });
    reportCliError(error);
    return written;
  };

  it('says which variable points where for a refused connection under a failed query, without the SQL or the password', () => {
    vi.stubEnv('DATABASE_URL', 'postgres://app:s3cret@127.0.0.1:5/app');
    const output = report(new DrizzleQueryError('select secret_column from runs', [], refused('127.0.0.1', 5)));
    expect(output).toBe('error: could not connect to Postgres at 127.0.0.1:5 (DATABASE_URL): ECONNREFUSED (nothing is listening there)\n');
  });

  it('prints a thrown value that is not an Error as itself', () => {
    expect(report('boom')).toBe("error: 'boom'\n");
  });

  it('strips escape sequences from messages, keeping their lines', () => {
    expect(report(new Error('run failed: \x1b]0;owned\x07bad key', { cause: new Error('HTTP 401\r') }))).toBe('error: run failed: bad key\ncaused by: HTTP 401\n');
  });
});
