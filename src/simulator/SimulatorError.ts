/** The simulator could not start or was given options it cannot use. The message says which. */
export class SimulatorError extends Error {
  override readonly name = 'SimulatorError';
  constructor(
    readonly kind: 'invalid_options' | 'listen_failed',
    message: string,
    /** For invalid_options: the option path at fault, e.g. `chain.txsPerBlock` or `faults.music.shares`. */
    readonly optionPath?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
