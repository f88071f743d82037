import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import { exposedPorts, imageEnv } from './dockerfile.js';
import { UPSTREAM_STAND_INS } from './upstreamStandIns.js';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: unknown;
  volumes?: string[];
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

/** What a service's container sees: the image's ENV, then the service's environment, from a host with the upstream variables set. */
function containerEnv(service: Service | undefined): Record<string, string> {
  const environment = Object.entries(service?.environment ?? {}).map(([name, value]): [string, string] => [name, composeValue(value, UPSTREAM_STAND_INS)]);
  return { ...imageEnv(), ...Object.fromEntries(environment) };
}

describe('docker-compose.yml', () => {
  it('has redis 7, postgres 16, worker and scheduler services', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'redis', 'scheduler', 'worker']);
    expect(services.redis?.image).toMatch(/^redis:7/);
    expect(services.postgres?.image).toMatch(/^postgres:16/);
  });

  it('gives the servers volumes and healthchecks on their standard ports', () => {
    expect(services.redis?.ports).toContain('6379:6379');
    expect(services.postgres?.ports).toContain('5432:5432');
    for (const name of ['redis', 'postgres']) {
      expect(services[name]?.healthcheck, name).toBeDefined();
      expect(services[name]?.volumes?.length, name).toBeGreaterThan(0);
    }
  });

  it('points the worker and scheduler at those servers with the variables feedsync reads', () => {
    const postgres = services.postgres?.environment ?? {};
    for (const name of ['worker', 'scheduler']) {
      const env = services[name]?.environment ?? {};
      expect(env.REDIS_URL, name).toBe('redis://redis:6379');
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

  it("publishes the port the worker's HTTP server listens on in its container, on every interface", () => {
    const { worker } = parseConfig(parse(config), 'feedsync.yaml', containerEnv(services.worker));
    expect(worker.httpHost).toBe('0.0.0.0');
    const published = (services.worker?.ports ?? []).map((mapping) => Number.parseInt(mapping.split(':').at(-1)!, 10));
    expect(published).toContain(worker.httpPort);
    expect(exposedPorts()).toContain(worker.httpPort);
  });
});
