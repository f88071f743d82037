/** A rate limiter's wait for a slot to free up. */
export interface SlotWait {
  /** Resolves after the wait or at `wake`; rejects with the signal's reason once it aborts. */
  ended: Promise<void>;
  /** Ends the wait now: a slot was given back. */
  wake(): void;
}

/** Waits `ms` on the global timer (which tests may fake), ended early by `wake` or `signal`. */
export function slotWait(ms: number, signal?: AbortSignal): SlotWait {
  let wake = (): void => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    const finish = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      finish();
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      finish();
      resolve();
    }, ms);
    wake = () => {
      finish();
      resolve();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return { ended, wake };
}
