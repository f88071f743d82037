/** The advisory lock class of ticks run in process (`feedsync run`); the tick id's hash is the lock's second key. */
export const IN_PROCESS_TICK = 7_346_112;

/** What each of the in-process tick lock's statements takes. */
export interface InProcessTickParams {
  tickId: string;
}
