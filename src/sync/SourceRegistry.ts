import type { Config } from '../config/schema.js';
import { LocalRateLimiter, OPEN_GATE, type RequestGate } from '../http/RequestGate.js';
import { SourceClient } from '../http/SourceClient.js';

/** One keep-alive client and one rate-limit gate per configured source, made on first use. */
export class SourceRegistry {
  private readonly clients = new Map<string, SourceClient>();
  private readonly gates = new Map<string, RequestGate>();

  constructor(
    private readonly config: Config,
    private readonly makeGate: (source: string, max: number, durationMs: number) => RequestGate = (_source, max, durationMs) => new LocalRateLimiter(max, durationMs),
  ) {}

  client(name: string): SourceClient {
    let client = this.clients.get(name);
    if (!client) {
      const source = this.config.sources[name];
      if (!source) throw new Error(`no source named "${name}" in the config`);
      client = new SourceClient(name, source);
      this.clients.set(name, client);
    }
    return client;
  }

  gate(name: string): RequestGate {
    let gate = this.gates.get(name);
    if (!gate) {
      const limit = this.config.sources[name]?.rateLimit;
      gate = limit ? this.makeGate(name, limit.max, limit.durationMs) : OPEN_GATE;
      this.gates.set(name, gate);
    }
    return gate;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
    this.clients.clear();
  }
}
