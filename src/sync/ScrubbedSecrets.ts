import { UpstreamError } from '../http/UpstreamError.js';
import type { Logger } from '../observability/logger.js';

/**
 * The secret occurrences an attempt at a run had scrubbed out of its upstream's answers (pages,
 * retried errors, the failure that ended it), said once when the attempt ends: an upstream that
 * echoes a key is worth knowing of, and one line per page would flood the log.
 */
export class ScrubbedSecrets {
  private replaced = 0;

  add(count: number): void {
    this.replaced += count;
  }

  /** Counts what the answer behind a failure had scrubbed out, when it came from one. */
  addFailure(error: unknown): void {
    if (error instanceof UpstreamError) this.add(error.secretsScrubbed);
  }

  /** One warning, if anything was scrubbed; the count, never the secret. */
  warn(log: Logger): void {
    if (this.replaced === 0) return;
    log.warn({ secretsScrubbed: this.replaced }, `the upstream echoed a configured secret (${this.replaced} occurrences); each was replaced by *** before anything was stored or logged`);
  }
}
