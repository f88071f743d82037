/** A local server could not be found, installed or started. The message says what to do. */
export class LocalStackError extends Error {
  override readonly name = 'LocalStackError';
  constructor(
    readonly kind: 'missing_binary' | 'start_failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
