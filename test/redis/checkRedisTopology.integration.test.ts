import { describe, expect, inject, it } from 'vitest';
import { RedisTopologyError } from '../../src/redis/checkRedisTopology.js';
import { connectRedis } from '../../src/redis/openRedis.js';

/** What connectRedis throws for this target, or undefined when it connects. */
async function refusal(target: Parameters<typeof connectRedis>[0]): Promise<unknown> {
  try {
    const client = await connectRedis(target, 'producer');
    client.disconnect();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('connectRedis', () => {
  it('connects to one Redis named by REDIS_URL', async () => {
    expect(await refusal(inject('redisUrl'))).toBeUndefined();
  });

  it('refuses an ioredis keyPrefix in REDIS_URL, which BullMQ cannot work with, pointing at worker.prefix', async () => {
    const error = await refusal(`${inject('redisUrl')}?keyPrefix=app:`);
    expect(error).toBeInstanceOf(RedisTopologyError);
    expect((error as Error).message).toMatch(/^REDIS_URL sets an ioredis keyPrefix.*worker\.prefix/);
  });

  it('refuses REDIS_CLUSTER_NODES naming a Redis that is not in cluster mode', async () => {
    const error = await refusal({ kind: 'cluster', nodes: [inject('redisUrl')] });
    expect(error).toBeInstanceOf(RedisTopologyError);
    expect((error as Error).message).toMatch(/^REDIS_CLUSTER_NODES names a Redis that is not in cluster mode; set REDIS_URL to it instead/);
  });

  it('fails with the socket error when nothing listens, not a topology error', async () => {
    const error = await refusal('redis://127.0.0.1:1');
    expect(error).not.toBeInstanceOf(RedisTopologyError);
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
  });
});
