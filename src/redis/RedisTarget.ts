import type { Cluster, Redis } from 'ioredis';
import type { ConnectionOptions as TlsOptions } from 'node:tls';

/** One client of any topology: BullMQ and feedsync's own scripts take either. */
export type RedisClient = Redis | Cluster;

/**
 * Where feedsync's Redis is and how to reach it, read once from the environment
 * (see readRedisTarget): one node, a Redis Cluster, or a master found through Sentinel.
 */
export type RedisTarget = RedisNode | RedisClusterTarget | RedisSentinelTarget;

/** One Redis server (REDIS_URL). */
export interface RedisNode {
  kind: 'node';
  /** `redis://` or `rediss://` (TLS); ioredis reads the rest of the URL, credentials and db included. */
  url: string;
  tls?: TlsOptions;
}

/** A Redis Cluster (REDIS_CLUSTER_NODES): any reachable seed node finds the others. */
export interface RedisClusterTarget {
  kind: 'cluster';
  /** Seed node URLs; the first that carries a login gives it to every node. */
  nodes: string[];
  tls?: TlsOptions;
}

/** A master a group of Sentinels names (REDIS_SENTINELS, REDIS_SENTINEL_MASTER). */
export interface RedisSentinelTarget {
  kind: 'sentinel';
  /** Sentinel URLs; their login is the Sentinels' own. */
  sentinels: string[];
  /** The master group's name, as the Sentinels know it. */
  master: string;
  /** The master's login (REDIS_USERNAME, REDIS_PASSWORD). */
  username?: string;
  password?: string;
  tls?: TlsOptions;
}

/** Every URL and password of a target: what the secret scrubber must know. */
export function redisTargetSecrets(target: RedisTarget): { urls: string[]; passwords: string[] } {
  switch (target.kind) {
    case 'node':
      return { urls: [target.url], passwords: [] };
    case 'cluster':
      return { urls: target.nodes, passwords: [] };
    case 'sentinel':
      return { urls: target.sentinels, passwords: target.password ? [target.password] : [] };
  }
}

/** The variable a target was read from, for messages. */
export function redisTargetVariable(target: RedisTarget): string {
  return { node: 'REDIS_URL', cluster: 'REDIS_CLUSTER_NODES', sentinel: 'REDIS_SENTINELS' }[target.kind];
}
