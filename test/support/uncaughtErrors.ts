/** Errors thrown where nobody catches them (an 'error' event nobody listens to), heard from now until stop(). */
export interface UncaughtErrors {
  errors: unknown[];
  /** Settles when the first one is heard. */
  first: Promise<unknown>;
  stop(): void;
}

export function hearUncaughtErrors(): UncaughtErrors {
  const errors: unknown[] = [];
  let heard: (error: unknown) => void = () => undefined;
  const first = new Promise<unknown>((resolve) => (heard = resolve));
  const onUncaught = (error: unknown) => {
    errors.push(error);
    heard(error);
  };
  process.on('uncaughtException', onUncaught);
  return { errors, first, stop: () => process.off('uncaughtException', onUncaught) };
}
