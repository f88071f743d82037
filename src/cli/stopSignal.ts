/**
 * Resolves at the first SIGTERM or SIGINT, after `onStop`; a second signal exits at once, for
 * an operator who will not wait for the drain.
 */
export function untilStopSignal(onStop: (signal: NodeJS.Signals) => void = () => undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      onStop(signal);
      process.once(signal, () => process.exit(130));
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
