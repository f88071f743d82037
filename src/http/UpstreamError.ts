export type UpstreamErrorKind =
  /** Socket error, reset or refused connection. */
  | 'network'
  | 'timeout'
  /** HTTP 429, or an error envelope saying so. */
  | 'rate_limited'
  /** 5xx, or an error envelope saying the failure is temporary. */
  | 'temporary'
  /** 401/403, or an error envelope saying the key is invalid. */
  | 'auth'
  /** Any other 4xx, or an error envelope we do not recognise as passing. */
  | 'rejected'
  | 'redirect'
  | 'too_large'
  /** The body nests deeper than feedsync parses and Postgres stores (see MAX_BODY_DEPTH). */
  | 'too_deep'
  /** The body is JSON cut short (it ends with a bracket or string still open), or empty: retried, as truncated in transit. */
  | 'malformed'
  /**
   * The body is whole but unreadable with the source's shape: not JSON (an HTML page), or JSON of
   * another shape. Not retried, as asked again it would read the same; the error says what the
   * body looks like and which preset or dataPath would read it.
   */
  | 'unreadable';

const RETRYABLE: ReadonlySet<UpstreamErrorKind> = new Set(['network', 'timeout', 'rate_limited', 'temporary', 'malformed']);

export interface UpstreamErrorDetails {
  source: string;
  status?: number;
  /** The upstream's own message (envelope `message`), when it gave one. */
  upstreamMessage?: string;
  /** How to fix a request the upstream refuses as asked (see ResponseShape.hints). */
  hint?: string;
  /** Start of the body, for the log; never contains request headers. */
  excerpt?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

/** A failed request to an upstream, classified so that retry policy is a lookup, not a guess. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly source: string;
  readonly status: number | undefined;
  readonly upstreamMessage: string | undefined;
  readonly excerpt: string | undefined;
  readonly retryAfterMs: number | undefined;
  /** Occurrences of a secret the upstream echoed in its answer, scrubbed out (set by the client that read it). */
  secretsScrubbed = 0;

  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    details: UpstreamErrorDetails,
  ) {
    const parts = [`${details.source}: ${message}`];
    if (details.status !== undefined) parts.push(`(HTTP ${details.status})`);
    if (details.upstreamMessage) parts.push(`upstream said: "${details.upstreamMessage}"`);
    if (details.hint) parts.push(`— ${details.hint}`);
    super(parts.join(' '), { cause: details.cause });
    this.source = details.source;
    this.status = details.status;
    this.upstreamMessage = details.upstreamMessage;
    this.excerpt = details.excerpt;
    this.retryAfterMs = details.retryAfterMs;
  }

  /** Malformed (cut short) bodies are retried: truncation is usually a passing fault; unreadable ones are not. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}
