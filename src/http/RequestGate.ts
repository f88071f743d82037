/** Leave to send one request; `release` once its response has been read, or `giveBack` if it was not sent. */
export interface Permit {
  waitedMs: number;
  release(): Promise<void> | void;
  /** The request was not sent after all (dropped while its slot came): the slot counts for nothing. */
  giveBack(): Promise<void> | void;
}

/**
 * Admits requests through a rate limit. A slot counts from the admission until `release`, and
 * then from the release time: the upstream sees arrivals no closer than the limit allows, even
 * when a request leaves late (busy event loop) or a response is slow.
 */
export interface RequestGate {
  /**
   * Waits for a slot; once `signal` aborts, stops waiting (at the latest when its turn in line
   * comes, or when a round trip to the limit's store under way ends) and rejects with its reason,
   * holding no slot. A slot granted as the signal aborts is still handed over: the caller gives it back.
   */
  acquire(signal?: AbortSignal): Promise<Permit>;
}

const FREE: Permit = { waitedMs: 0, release: () => undefined, giveBack: () => undefined };

export const OPEN_GATE: RequestGate = { acquire: () => Promise.resolve(FREE) };
