import { FAULT_KINDS, type FaultKind, type Faults } from './faults.js';
import { Prng, domainOf, hashOf } from '../server/prng.js';

/** What happens to one request; `delayMs` applies before anything is answered. */
export type FaultDecision = { delayMs: number } & (
  | { kind: 'none' | 'outage' | 'reset' | 'hang' | 'malformedJson' | 'truncatedBody' }
  | { kind: 'serverError'; status: number }
  | { kind: 'tooManyRequests'; retryAfter: string }
  | { kind: 'errorEnvelope'; pick: number }
);

const DOMAIN = domainOf('faults');

/**
 * Decides the fault of each request of one endpoint. Each decision takes exactly three draws from a
 * seeded generator (jitter, kind, variant), and setting faults reseeds it and restarts the request
 * count, so the same faults and the same request order give the same decisions.
 */
export class FaultGate {
  private readonly prng = new Prng(0);
  private requestsSinceSet = 0;

  constructor(
    private readonly simulatorSeed: number,
    private readonly endpointIndex: number,
    private faults: Faults,
  ) {
    this.set(faults);
  }

  set(faults: Faults): void {
    this.faults = faults;
    this.requestsSinceSet = 0;
    this.prng.reseed(faults.seed ?? hashOf(this.simulatorSeed, DOMAIN, this.endpointIndex));
  }

  current(): Faults {
    return this.faults;
  }

  decide(nowMs: number): FaultDecision {
    const faults = this.faults;
    const n = ++this.requestsSinceSet;
    const delayMs = faults.latencyMs + this.prng.nextUnit() * faults.jitterMs;
    const kindDraw = this.prng.nextUnit();
    const pick = this.prng.nextUnit();
    const kind = this.kindOf(n, nowMs, kindDraw);
    switch (kind) {
      case 'serverError':
        return { kind, delayMs, status: faults.serverErrorStatuses[Math.floor(pick * faults.serverErrorStatuses.length)]! };
      case 'tooManyRequests':
        return { kind, delayMs, retryAfter: retryAfterValue(faults.retryAfter, nowMs + delayMs) };
      case 'errorEnvelope':
        return { kind, delayMs, pick };
      default:
        return { kind, delayMs };
    }
  }

  private kindOf(n: number, nowMs: number, draw: number): FaultKind | 'none' | 'outage' {
    const { outage, sequence, everyNth, shares } = this.faults;
    if (outage !== null && nowMs >= outage.from && nowMs <= outage.until) return 'outage';
    if (n <= sequence.length) return sequence[n - 1]!;
    if (everyNth !== null && n % everyNth.n === 0) return everyNth.kind;
    let cumulative = 0;
    for (const kind of FAULT_KINDS) {
      cumulative += shares[kind];
      if (draw < cumulative) return kind;
    }
    return 'none';
  }
}

function retryAfterValue(retryAfter: Faults['retryAfter'], answeredAtMs: number): string {
  if (retryAfter.form === 'seconds') return String(retryAfter.seconds);
  // HTTP-dates have whole seconds; rounding up keeps the wait at least `seconds`.
  return new Date(Math.ceil((answeredAtMs + retryAfter.seconds * 1000) / 1000) * 1000).toUTCString();
}
