/** Leave to send one request; `release` once its response has been read. */
export interface Permit {
  waitedMs: number;
  release(): Promise<void> | void;
}

/**
 * Admits requests through a rate limit. A slot counts from the admission until `release`, and
 * then from the release time: the upstream sees arrivals no closer than the limit allows, even
 * when a request leaves late (busy event loop) or a response is slow.
 */
export interface RequestGate {
  acquire(): Promise<Permit>;
}

const FREE: Permit = { waitedMs: 0, release: () => undefined };

export const OPEN_GATE: RequestGate = { acquire: () => Promise.resolve(FREE) };
