import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { freePort } from '../../src/localstack/freePort.js';
import { ensureRedisBinary } from '../../src/localstack/redisServer.js';
import { scratchDir } from '../support/scratchDir.js';
import { waitFor } from '../support/waitFor.js';
import { exposedPorts, imageEnv } from './dockerfile.js';
import { UPSTREAM_STAND_INS } from './upstreamStandIns.js';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  user?: string;
}

const compose = parse(await readFile('docker-compose.yml', 'utf8')) as { services: Record<string, Service> };
const config = await readFile('feedsync.yaml', 'utf8');
const services = compose.services;

/** A compose value with `${NAME}`, `${NAME:-default}` and `${NAME:?message}` taken from the host's environment. */
function composeValue(value: string, host: Readonly<Record<string, string>>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind: string | undefined, text: string | undefined) => {
    const hostValue = host[name];
    if (hostValue !== undefined) return hostValue;
    if (kind === '?') throw new Error(`compose needs ${name} set on the host: ${text}`);
    return text ?? '';
  });
}

/** The passwords a user sets (in the environment or .env) before `docker compose up`. */
const PASSWORDS = { POSTGRES_PASSWORD: 'pgPassword0123', REDIS_PASSWORD: 'redisPassword0123' };

/** A service's environment as compose gives it, from a host with these variables set. */
function serviceEnv(service: Service | undefined, host: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(service?.environment ?? {}).map(([name, value]) => [name, composeValue(value, host)]));
}

/** What a service's container sees: the image's ENV, then the service's environment, from a host with the upstream variables and passwords set. */
function containerEnv(service: Service | undefined): Record<string, string> {
  return { ...imageEnv(), ...serviceEnv(service, { ...UPSTREAM_STAND_INS, ...PASSWORDS }) };
}

/** Runs the redis service's command on this machine (its `$$` unescaped as compose does), on `port` and in `dir`; resolves with the process once it answers. */
async function startComposeRedis(port: number, dir: string) {
  const [shell, flag, script] = (services.redis?.command ?? []).map((part) => part.replaceAll('$$', '$'));
  expect([shell, flag]).toEqual(['sh', '-c']);
  // `-` (config from stdin) must stay redis-server's first argument.
  const local = script!.replace('redis-server -', `${await ensureRedisBinary()} - --port ${port} --dir ${dir} --bind 127.0.0.1`);
  const child = spawn('sh', ['-c', local], { env: { ...process.env, ...containerEnv(services.redis) }, stdio: 'ignore' });
  const authenticated = await waitFor('the compose Redis to answer', async () => {
    const client = new Redis({ port, password: PASSWORDS.REDIS_PASSWORD, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    return client.connect().then(
      () => client,
      () => (client.disconnect(), undefined),
    );
  });
  return { child, authenticated };
}

describe('docker-compose.yml', () => {
  it('has redis 7, postgres 16, worker and scheduler services', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'redis', 'scheduler', 'worker']);
    expect(services.redis?.image).toMatch(/^redis:7/);
    expect(services.postgres?.image).toMatch(/^postgres:16/);
  });

  it('gives the servers volumes and healthchecks on their standard ports', () => {
    expect(services.redis?.ports).toContain('127.0.0.1:6379:6379');
    expect(services.postgres?.ports).toContain('127.0.0.1:5432:5432');
    for (const name of ['redis', 'postgres']) {
      expect(services[name]?.healthcheck, name).toBeDefined();
      expect(services[name]?.volumes?.length, name).toBeGreaterThan(0);
    }
  });

  it('publishes every port on the loopback interface only', () => {
    const published = Object.values(services).flatMap((service) => service.ports ?? []);
    expect(published.length).toBeGreaterThan(0);
    for (const mapping of published) expect(mapping).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it('refuses to start without POSTGRES_PASSWORD and REDIS_PASSWORD, and holds no password of its own', () => {
    const readers = { POSTGRES_PASSWORD: ['postgres', 'worker'], REDIS_PASSWORD: ['redis', 'worker'] };
    for (const [missing, names] of Object.entries(readers)) {
      const host = { ...UPSTREAM_STAND_INS, ...PASSWORDS, [missing]: undefined } as Record<string, string>;
      for (const name of names) expect(() => serviceEnv(services[name], host), `${name} without ${missing}`).toThrow(missing);
    }
    expect(services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?[^}]+\}$/);
  });

  it('points the worker and scheduler at those servers with the variables feedsync reads, passwords included', () => {
    const postgres = serviceEnv(services.postgres, PASSWORDS);
    expect(postgres.POSTGRES_PASSWORD).toBe(PASSWORDS.POSTGRES_PASSWORD);
    for (const name of ['worker', 'scheduler']) {
      const env = containerEnv(services[name]);
      expect(env.REDIS_URL, name).toBe(`redis://:${PASSWORDS.REDIS_PASSWORD}@redis:6379`);
      expect(env.DATABASE_URL, name).toBe(`postgres://${postgres.POSTGRES_USER}:${postgres.POSTGRES_PASSWORD}@postgres:5432/${postgres.POSTGRES_DB}`);
    }
    expect(services.worker?.command).toEqual(['worker']);
    expect(services.scheduler?.command).toEqual(['scheduler']);
  });

  it('passes every environment variable the example config reads, or the image sets it', () => {
    const read = [...config.matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]!);
    expect(read.length).toBeGreaterThan(0);
    const set = [...Object.keys(services.worker?.environment ?? {}), ...Object.keys(imageEnv())];
    for (const variable of new Set(read)) expect(set, variable).toContain(variable);
  });

  it('runs a Redis that refuses clients without REDIS_PASSWORD, with the password off its command line', async () => {
    const { child, authenticated } = await startComposeRedis(await freePort(), await scratchDir('compose-redis'));
    const anonymous = new Redis({ port: authenticated.options.port, lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // ioredis 6 opens with HELLO (RESP3), which Redis answers NOAUTH before it closes the connection.
    const refusals: string[] = [];
    anonymous.on('error', (error: Error) => refusals.push(error.message));
    try {
      expect(await authenticated.ping()).toBe('PONG');
      await expect(anonymous.connect()).rejects.toThrow();
      expect(refusals.join('\n')).toMatch(/NOAUTH/);
      const commandLine = await readFile(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(commandLine).toContain('redis-server');
      expect(commandLine).not.toContain(PASSWORDS.REDIS_PASSWORD);
    } finally {
      anonymous.disconnect();
      await authenticated.shutdown('NOSAVE').catch(() => undefined);
      authenticated.disconnect();
    }
  });

  it('runs Redis as the redis user and checks its health with the password', () => {
    expect(services.redis?.user).toBe('redis');
    expect(services.redis?.environment?.REDISCLI_AUTH).toMatch(/^\$\{REDIS_PASSWORD:\?[^}]+\}$/);
    expect(services.redis?.healthcheck?.test.join(' ')).toMatch(/redis-cli ping \| grep -q PONG/);
  });

  it("publishes the port the worker's HTTP server listens on in its container", () => {
    const { worker } = parseConfig(parse(config), 'feedsync.yaml', containerEnv(services.worker));
    expect(worker.httpHost).toBe('0.0.0.0');
    const published = (services.worker?.ports ?? []).map((mapping) => Number.parseInt(mapping.split(':').at(-1)!, 10));
    expect(published).toContain(worker.httpPort);
    expect(exposedPorts()).toContain(worker.httpPort);
  });
});
