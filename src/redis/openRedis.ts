import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { checkRedisTopology, topologyErrorOf } from './checkRedisTopology.js';
import type { RedisClient, RedisTarget } from './RedisTarget.js';

/** A command-line producer gives up after this many failed connection attempts, half a second apart. */
const PRODUCER_CONNECT_ATTEMPTS = 6;

/**
 * Workers block on Redis and must retry forever (`maxRetriesPerRequest: null`, as BullMQ
 * requires); producers (CLI, scheduler) fail fast when Redis is down rather than queue commands
 * in memory.
 */
function roleOptions(role: 'worker' | 'producer'): RedisOptions {
  return role === 'worker'
    ? { maxRetriesPerRequest: null }
    : { maxRetriesPerRequest: 3, connectTimeout: 5_000, retryStrategy: (attempt: number) => (attempt > PRODUCER_CONNECT_ATTEMPTS ? null : 500) };
}

/** A client for a target: a REDIS_URL string is one node. */
export function openRedis(target: RedisTarget | string, role: 'worker' | 'producer'): RedisClient {
  const client = connect(typeof target === 'string' ? { kind: 'node', url: target } : target, roleOptions(role));
  // ioredis reconnects by itself; without a listener an 'error' event would crash the process.
  client.on('error', () => undefined);
  return client;
}

function connect(target: RedisTarget, options: RedisOptions): RedisClient {
  switch (target.kind) {
    case 'node':
      return new Redis(target.url, { ...options, ...(target.tls && { tls: target.tls }) });
    case 'cluster': {
      const login = target.nodes.map((url) => new URL(url)).find((url) => url.username || url.password);
      return new Cluster(
        target.nodes.map((url) => hostAndPort(url, 6379)),
        {
          // A producer's give-up applies to finding the cluster too.
          ...(options.retryStrategy && { clusterRetryStrategy: options.retryStrategy }),
          redisOptions: {
            ...options,
            ...(login && { username: decodeURIComponent(login.username) || undefined, password: decodeURIComponent(login.password) || undefined }),
            ...(target.tls && { tls: target.tls }),
          },
          ...(target.tls && { dnsLookup: (address, callback) => callback(null, address) }),
        },
      );
    }
    case 'sentinel': {
      const first = new URL(target.sentinels[0]!);
      return new Redis({
        ...options,
        sentinels: target.sentinels.map((url) => hostAndPort(url, 26379)),
        name: target.master,
        username: target.username,
        password: target.password,
        sentinelUsername: decodeURIComponent(first.username) || undefined,
        sentinelPassword: decodeURIComponent(first.password) || undefined,
        ...(target.tls && { tls: target.tls, sentinelTLS: target.tls, enableTLSForSentinelMode: true }),
      });
    }
  }
}

function hostAndPort(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  // An IPv6 host keeps its brackets in a URL; a socket wants it bare.
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: parsed.port ? Number(parsed.port) : defaultPort };
}

/**
 * Opens a client and checks that it fits the Redis it reached (checkRedisTopology). A Redis out
 * of reach fails with the socket's own error (ECONNREFUSED, …), which says where and why.
 */
export async function connectRedis(target: RedisTarget | string, role: 'worker' | 'producer'): Promise<RedisClient> {
  const client = openRedis(target, role);
  let connectionError: Error | undefined;
  client.on('error', (error: Error) => (connectionError = error));
  const checked: RedisTarget = typeof target === 'string' ? { kind: 'node', url: target } : target;
  try {
    await checkRedisTopology(client, checked);
    return client;
  } catch (error) {
    client.disconnect();
    throw topologyErrorOf(error, checked) ?? topologyErrorOf(connectionError, checked) ?? connectionError ?? error;
  }
}
