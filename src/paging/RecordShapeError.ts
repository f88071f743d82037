/**
 * Records that are not where, or not what, the config says in a well-formed envelope: the
 * upstream answered as it always will, so retrying cannot help.
 */
export class RecordShapeError extends Error {
  override readonly name = 'RecordShapeError';
  /** The run's stored error kind. */
  readonly kind = 'unexpected_shape';
  readonly retryable = false;

  constructor(
    readonly source: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
  }
}
