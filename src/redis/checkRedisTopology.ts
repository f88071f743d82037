import { Cluster } from 'ioredis';
import { redisTargetVariable, type RedisClient, type RedisTarget } from './RedisTarget.js';

/**
 * The Redis named is not the topology its variable says, or is set up in a way BullMQ cannot
 * work with: refused at start, before anything is written anywhere, rather than met later as
 * MOVED or CROSSSLOT replies on every command.
 */
export class RedisTopologyError extends Error {
  override readonly name = 'RedisTopologyError';
  readonly kind = 'redis_topology';
}

/** Checks, once a process connects, that the client fits the Redis it reached. */
export async function checkRedisTopology(client: RedisClient, target: RedisTarget): Promise<void> {
  const variable = redisTargetVariable(target);
  const keyPrefix = client instanceof Cluster ? client.options.redisOptions?.keyPrefix ?? client.options.keyPrefix : client.options.keyPrefix;
  if (keyPrefix) {
    throw new RedisTopologyError(`${variable} sets an ioredis keyPrefix, which BullMQ's scripts do not support; remove it and set worker.prefix in the config instead`);
  }
  if (client instanceof Cluster) {
    const info = await client.cluster('INFO').catch((error: unknown) => {
      throw topologyErrorOf(error, target) ?? error;
    });
    if (!/^cluster_state:ok\s*$/m.test(info)) throw new RedisTopologyError(`${variable}: the Redis Cluster reports ${/^cluster_state:\S+/m.exec(info)?.[0] ?? 'no cluster_state'}; every hash slot must be served before feedsync can use it`);
    return;
  }
  const info = await client.info('cluster');
  if (/^cluster_enabled:1\s*$/m.test(info)) {
    throw new RedisTopologyError(`${variable} names a node of a Redis Cluster, where one node's client is sent elsewhere (MOVED) for most keys; list the cluster's nodes in REDIS_CLUSTER_NODES instead`);
  }
}

/**
 * The topology error a failed connection stands for, if any: a cluster client that found a Redis
 * not in cluster mode fails its slot refresh with that Redis's refusal as the last node error.
 */
export function topologyErrorOf(error: unknown, target: RedisTarget): RedisTopologyError | undefined {
  if (error instanceof RedisTopologyError) return error;
  const messages = [error, (error as { lastNodeError?: unknown } | undefined)?.lastNodeError].map((candidate) => (candidate instanceof Error ? candidate.message : ''));
  if (target.kind === 'cluster' && messages.some((message) => /cluster support disabled/i.test(message))) {
    return new RedisTopologyError(`${redisTargetVariable(target)} names a Redis that is not in cluster mode; set REDIS_URL to it instead`, { cause: error });
  }
  return undefined;
}
