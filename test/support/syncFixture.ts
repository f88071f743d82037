import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { findJob, resolveQuery, type ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config, ConfigInput } from '../../src/config/schema.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';
import type { Simulator } from '../../src/simulator/startSimulator.js';

/** A logger that keeps every line, to look for what must never be logged. */
export function capturingLogger(level = 'debug'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines };
}

/** Sources pointing at a running simulator, with quick retries so fault tests stay short. */
export function simulatorSources(simulator: Pick<Simulator, 'musicBaseUrl' | 'explorerBaseUrl' | 'apiKey'>): ConfigInput['sources'] {
  const retry = { attempts: 4, baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 1500 };
  return {
    music: { baseUrl: simulator.musicBaseUrl, apiKey: simulator.apiKey, path: '/2.0/', timeoutMs: 2000, retry },
    explorer: {
      baseUrl: simulator.explorerBaseUrl,
      apiKey: simulator.apiKey,
      path: '/api',
      timeoutMs: 2000,
      retry,
      paging: { limit: 1000, window: { maxResults: 10_000, param: 'startblock', field: 'blockNumber' } },
    },
  };
}

export function configFor(simulator: Simulator, jobs: ConfigInput['jobs'], extra: Partial<ConfigInput> = {}): Config {
  return parseConfig({ sources: simulatorSources(simulator), jobs, ...extra }, 'test config', {});
}

export function queryOf(config: Config, job: string, index = 0): ResolvedQuery {
  return resolveQuery(config, findJob(config, job), index);
}

/** How many artists the simulator's `artist.search` finds for `q`: what a complete sync must store. */
export async function artistSearchTotal(simulator: Simulator, q: string): Promise<number> {
  const response = await fetch(`${simulator.musicBaseUrl}/2.0/?method=artist.search&q=${encodeURIComponent(q)}&limit=1`, { headers: { authorization: `Bearer ${simulator.apiKey}` } });
  return ((await response.json()) as { data: { total: number } }).data.total;
}
