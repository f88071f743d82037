const TWO_POW_32 = 4294967296;

/** Bijective avalanche of a 32-bit integer (Chris Wellons' lowbias32): neighbouring inputs give unrelated outputs. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit domain tag from a name, so each record field draws from its own stream (FNV-1a). */
export function domainOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Hash of (seed, domain, a, b), with a and b non-negative integers below 2^53. Record i is a pure
 * function of (seed, i), so any record can be generated on demand without generating the others.
 */
export function hashOf(seed: number, domain: number, a: number, b = 0): number {
  let h = mix32((seed ^ domain) >>> 0);
  h = mix32(h ^ (a >>> 0));
  h = mix32(h ^ Math.floor(a / TWO_POW_32));
  return mix32(h ^ (b >>> 0) ^ Math.floor(b / TWO_POW_32));
}

/** Maps a uint32 to [0, 1). */
export function unitOf(uint32: number): number {
  return uint32 / TWO_POW_32;
}

/** Mulberry32: a small fast seeded generator for streams of draws (record fields, fault decisions). */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  reseed(seed: number): void {
    this.state = seed >>> 0;
  }

  nextUint32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A draw in [0, 1). */
  nextUnit(): number {
    return this.nextUint32() / TWO_POW_32;
  }
}
