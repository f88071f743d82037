import { readFileSync } from 'node:fs';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import type { RedisTarget } from '../redis/RedisTarget.js';
import { checkedServerUrls, type ServerVariable } from './options.js';

type TargetVariable = Extract<ServerVariable, 'REDIS_URL' | 'REDIS_CLUSTER_NODES' | 'REDIS_SENTINELS'>;
const TARGET_VARIABLES: readonly TargetVariable[] = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'];

/** PEM files for `rediss://`: the CA that signed the servers' certificates, and a client certificate. */
const TLS_FILES = { REDIS_TLS_CA_FILE: 'ca', REDIS_TLS_CERT_FILE: 'cert', REDIS_TLS_KEY_FILE: 'key' } as const;

/**
 * The Redis every command uses, from exactly one of REDIS_URL (one node), REDIS_CLUSTER_NODES
 * (seed nodes of a Redis Cluster) or REDIS_SENTINELS with REDIS_SENTINEL_MASTER; undefined when
 * none is set. Messages name the variable, never its value, which may hold a password.
 */
export function optionalRedisTarget(env: NodeJS.ProcessEnv = process.env): RedisTarget | undefined {
  const set = TARGET_VARIABLES.filter((name) => env[name]);
  if (set.length > 1) throw new Error(`${set.join(' and ')} are set at once; set only one: REDIS_URL for one Redis, REDIS_CLUSTER_NODES for a Redis Cluster, REDIS_SENTINELS for a master behind Sentinel`);
  const [variable] = set;
  if (!variable) return undefined;
  const urls = checkedServerUrls(variable, env[variable]!);
  const tls = tlsOptions(variable, urls, env);
  if (variable === 'REDIS_URL') {
    if (urls.length > 1) throw new Error('REDIS_URL holds more than one URL; list a Redis Cluster\'s seed nodes in REDIS_CLUSTER_NODES instead');
    return { kind: 'node', url: urls[0]!, tls };
  }
  if (variable === 'REDIS_CLUSTER_NODES') return { kind: 'cluster', nodes: urls, tls };
  const master = env.REDIS_SENTINEL_MASTER;
  if (!master) throw new Error('REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER is not; set it to the master group name the Sentinels know (e.g. mymaster)');
  return { kind: 'sentinel', sentinels: urls, master, username: env.REDIS_USERNAME || undefined, password: env.REDIS_PASSWORD || undefined, tls };
}

/** Like optionalRedisTarget, for commands that cannot run without Redis. */
export function redisTargetFromEnv(env: NodeJS.ProcessEnv = process.env): RedisTarget {
  const target = optionalRedisTarget(env);
  if (target) return target;
  throw new Error(
    'REDIS_URL is not set. Point it at a running Redis (or set REDIS_CLUSTER_NODES for a Redis Cluster, REDIS_SENTINELS for Sentinel; see docs/operations.md), start one with `docker compose up -d`, or try everything on throwaway servers with `npm run demo`.',
  );
}

/** TLS options for `rediss://` URLs; all of a variable's URLs use TLS, or none. */
function tlsOptions(variable: TargetVariable, urls: string[], env: NodeJS.ProcessEnv): TlsOptions | undefined {
  const secure = urls.filter((url) => new URL(url).protocol === 'rediss:').length;
  if (secure > 0 && secure < urls.length) throw new Error(`${variable} mixes redis:// and rediss:// URLs; use rediss:// for all of them or none`);
  const files = Object.entries(TLS_FILES).filter(([name]) => env[name]);
  if (secure === 0) {
    if (files.length > 0) throw new Error(`${files.map(([name]) => name).join(' and ')} set, but ${variable} is not a rediss:// URL: TLS would not be used`);
    return undefined;
  }
  const options: TlsOptions = {};
  for (const [name, field] of files) {
    try {
      options[field] = readFileSync(env[name]!);
    } catch (error) {
      throw new Error(`${name}: could not read ${env[name]}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
  }
  return options;
}
