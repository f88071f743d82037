import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionalRedisTarget, redisTargetFromEnv } from '../../src/cli/redisEnv.js';

const PASSWORD = 'pw-9f3e1c';

describe('redisTargetFromEnv', () => {
  it('reads REDIS_URL as one node, as before', () => {
    expect(redisTargetFromEnv({ REDIS_URL: 'redis://127.0.0.1:6379/2' })).toEqual({ kind: 'node', url: 'redis://127.0.0.1:6379/2', tls: undefined });
  });

  it('reads REDIS_CLUSTER_NODES as a cluster of seed nodes, spaces around the commas allowed', () => {
    expect(redisTargetFromEnv({ REDIS_CLUSTER_NODES: 'redis://h1:7000, redis://h2:7001' })).toEqual({ kind: 'cluster', nodes: ['redis://h1:7000', 'redis://h2:7001'], tls: undefined });
  });

  it('reads REDIS_SENTINELS with REDIS_SENTINEL_MASTER and the master login from REDIS_USERNAME / REDIS_PASSWORD', () => {
    const target = redisTargetFromEnv({ REDIS_SENTINELS: 'redis://s1:26379,redis://s2:26379', REDIS_SENTINEL_MASTER: 'mymaster', REDIS_USERNAME: 'app', REDIS_PASSWORD: PASSWORD });
    expect(target).toEqual({ kind: 'sentinel', sentinels: ['redis://s1:26379', 'redis://s2:26379'], master: 'mymaster', username: 'app', password: PASSWORD, tls: undefined });
  });

  it('uses TLS for rediss:// URLs, with the CA, certificate and key files named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'redis-env-'));
    writeFileSync(join(dir, 'ca.pem'), 'CA PEM');
    const target = redisTargetFromEnv({ REDIS_CLUSTER_NODES: 'rediss://h1:7000,rediss://h2:7001', REDIS_TLS_CA_FILE: join(dir, 'ca.pem') });
    expect(target.tls?.ca?.toString()).toBe('CA PEM');
  });

  it('uses TLS with the system CAs for a rediss:// URL and no files', () => {
    expect(redisTargetFromEnv({ REDIS_URL: 'rediss://h:6380' }).tls).toEqual({});
  });

  it('returns nothing when no Redis variable is set, for commands that can do without', () => {
    expect(optionalRedisTarget({})).toBeUndefined();
  });
});

describe('redisTargetFromEnv refuses', () => {
  const rows: { what: string; env: NodeJS.ProcessEnv; message: RegExp }[] = [
    { what: 'no Redis variable', env: {}, message: /^REDIS_URL is not set\. .*REDIS_CLUSTER_NODES.*REDIS_SENTINELS/ },
    { what: 'two topologies at once', env: { REDIS_URL: 'redis://h:6379', REDIS_CLUSTER_NODES: 'redis://h:7000' }, message: /^REDIS_URL and REDIS_CLUSTER_NODES are set at once; set only one/ },
    { what: 'a cluster node of another scheme', env: { REDIS_CLUSTER_NODES: `redis://h1:7000,http://:${PASSWORD}@h2:7001` }, message: /^REDIS_CLUSTER_NODES must be a redis:\/\/ or rediss:\/\/ URL/ },
    { what: 'an empty entry in the list', env: { REDIS_CLUSTER_NODES: 'redis://h1:7000,,redis://h2:7001' }, message: /^REDIS_CLUSTER_NODES has an empty entry/ },
    { what: 'a cluster node that is no URL', env: { REDIS_CLUSTER_NODES: `redis://h1:7000,${PASSWORD}` }, message: /^REDIS_CLUSTER_NODES is not a URL/ },
    { what: 'several URLs in REDIS_URL', env: { REDIS_URL: 'redis://h1:6379,redis://h2:6379' }, message: /^REDIS_URL holds more than one URL; list a Redis Cluster's seed nodes in REDIS_CLUSTER_NODES/ },
    { what: 'Sentinels without a master name', env: { REDIS_SENTINELS: 'redis://s1:26379' }, message: /^REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER is not/ },
    { what: 'redis:// and rediss:// mixed', env: { REDIS_CLUSTER_NODES: 'rediss://h1:7000,redis://h2:7001' }, message: /^REDIS_CLUSTER_NODES mixes redis:\/\/ and rediss:\/\/ URLs/ },
    { what: 'a CA file without TLS', env: { REDIS_URL: 'redis://h:6379', REDIS_TLS_CA_FILE: '/etc/ca.pem' }, message: /^REDIS_TLS_CA_FILE set, but REDIS_URL is not a rediss:\/\/ URL: TLS would not be used/ },
    { what: 'a CA file that cannot be read', env: { REDIS_URL: 'rediss://h:6380', REDIS_TLS_CA_FILE: '/nonexistent/ca.pem' }, message: /^REDIS_TLS_CA_FILE: could not read \/nonexistent\/ca\.pem: ENOENT/ },
  ];

  it.each(rows)('$what, naming the variable and never a password', ({ env, message }) => {
    let caught: unknown;
    try {
      redisTargetFromEnv(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain(PASSWORD);
  });
});
