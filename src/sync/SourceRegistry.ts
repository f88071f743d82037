import type { Config, RateWindow } from '../config/schema.js';
import { LocalRateLimiter } from '../http/LocalRateLimiter.js';
import { OPEN_GATE, type RequestGate } from '../http/RequestGate.js';
import { SourceClient } from '../http/SourceClient.js';
import { configuredSecrets, SecretScrubber } from '../observability/SecretScrubber.js';
import { PAGES_AHEAD_DEPTH } from './PagesAhead.js';

export interface SourceRegistryOptions {
  /** Makes a source's rate-limit gate; in-process by default, Redis-backed in workers. */
  makeGate?: (source: string, windows: readonly RateWindow[]) => RequestGate;
  onRequestEnded?: (source: string, status: string, latencyMs: number) => void;
}

/**
 * Keep-alive connections to a source for a worker that runs `concurrency` runs at once: one for
 * each request they may have in flight (a run's page and its pages ahead). Fewer would make runs
 * queue for a socket inside the process, unseen, the wait counted as the upstream's latency; how
 * fast a source may be asked is its rateLimit's to say, and how many connections it takes, its
 * `connections`.
 */
export function sourceConnections(concurrency: number): number {
  return concurrency * (1 + PAGES_AHEAD_DEPTH);
}

/** One keep-alive client and one rate-limit gate per configured source, made on first use. */
export class SourceRegistry {
  private readonly clients = new Map<string, SourceClient>();
  private readonly gates = new Map<string, RequestGate>();
  /** Every secret of the config, scrubbed from whatever any source says. */
  readonly secrets: SecretScrubber;

  constructor(
    private readonly config: Config,
    private readonly options: SourceRegistryOptions = {},
  ) {
    this.secrets = new SecretScrubber(configuredSecrets(config));
  }

  client(name: string): SourceClient {
    let client = this.clients.get(name);
    if (!client) {
      const source = this.config.sources[name];
      if (!source) throw new Error(`no source named "${name}" in the config`);
      const report = this.options.onRequestEnded;
      const onRequestEnded = report ? (status: string, latencyMs: number) => report(name, status, latencyMs) : undefined;
      const connections = source.connections ?? sourceConnections(this.config.worker.concurrency);
      client = new SourceClient(name, source, { connections, onRequestEnded, secrets: this.secrets });
      this.clients.set(name, client);
    }
    return client;
  }

  gate(name: string): RequestGate {
    let gate = this.gates.get(name);
    if (!gate) {
      const limit = this.config.sources[name]?.rateLimit;
      const makeGate = this.options.makeGate ?? ((_source: string, windows: readonly RateWindow[]) => new LocalRateLimiter(windows));
      gate = limit ? makeGate(name, limit) : OPEN_GATE;
      this.gates.set(name, gate);
    }
    return gate;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
    this.clients.clear();
  }
}
