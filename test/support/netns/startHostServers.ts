import { startPostgresServer, type PostgresServer } from '../../../src/localstack/postgresServer.js';
import { startRedisServer, type RedisServer } from '../../../src/localstack/redisServer.js';
import type { Host, Network } from './createNetwork.js';

/** The servers' usual ports: each host has a network stack of its own, so they are free there. */
const POSTGRES_PORT = 5432;
const REDIS_PORT = 6379;

/** A throwaway Postgres on `host`, listening on its address only and trusting the network's hosts (see startPostgresServer). */
export function startPostgresOn(network: Network, host: Host): Promise<PostgresServer> {
  return startPostgresServer({ host: host.address, port: POSTGRES_PORT, trustedNetwork: network.subnet, commandPrefix: host.exec });
}

/** A throwaway, memory-only redis-server on `host`, listening on its address only (see startRedisServer). */
export function startRedisOn(host: Host): Promise<RedisServer> {
  return startRedisServer({ host: host.address, port: REDIS_PORT, commandPrefix: host.exec });
}
