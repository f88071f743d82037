import { Redis } from 'ioredis';
import { runCommand } from '../../../src/localstack/processes.js';
import { startRedisServer, type RedisServer } from '../../../src/localstack/redisServer.js';
import { scratchDir } from '../scratchDir.js';
import { waitFor } from '../waitFor.js';

/** A local Redis Cluster of masters without replicas, on loopback ports. */
export interface RedisCluster {
  /** Seed node URLs, as REDIS_CLUSTER_NODES takes them. */
  nodes: string[];
  servers: RedisServer[];
  stop(): Promise<void>;
}

/**
 * Starts `masters` redis-servers in cluster mode and joins them with `redis-cli --cluster create`,
 * the hash slots split evenly; resolves once every node reports cluster_state:ok.
 */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const servers: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    for (let index = 0; index < masters; index += 1) {
      const dir = await scratchDir(`redis-cluster-${index}`);
      servers.push(await startRedisServer({ args: ['--cluster-enabled', 'yes', '--cluster-config-file', `${dir}/nodes.conf`, '--dir', dir] }));
    }
    const addresses = servers.map((server) => `127.0.0.1:${server.port}`);
    const created = await runCommand('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    if (created.code !== 0) throw new Error(`redis-cli --cluster create failed:\n${created.output}`);
    await Promise.all(servers.map((server) => waitFor(`cluster_state:ok on ${server.port}`, () => clusterStateOk(server.url))));
    return { nodes: servers.map((server) => server.url), servers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function clusterStateOk(url: string): Promise<boolean> {
  const client = new Redis(url, { maxRetriesPerRequest: 0, lazyConnect: true });
  try {
    const info = await client.cluster('INFO');
    return /^cluster_state:ok\s*$/m.test(info);
  } finally {
    client.disconnect();
  }
}
