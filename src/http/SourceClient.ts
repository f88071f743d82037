import { createHash } from 'node:crypto';
import { errors as undiciErrors, Pool } from 'undici';
import type { SourceConfig } from '../config/schema.js';
import { envelopeError, excerptOf, parseEnvelope, type Envelope } from './envelope.js';
import { parseRetryAfter } from './retryAfter.js';
import { UpstreamError } from './UpstreamError.js';

function withoutNulChars(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw, (_key, value: unknown) => (typeof value === 'string' ? value.replaceAll('\u0000', '') : value)));
  } catch {
    return raw;
  }
}

/** One page as received: the raw body is kept so it is stored without re-serialising. */
export interface FetchedPage {
  /** Request URL; the key travels in a header, so this holds no secret. */
  url: string;
  raw: string;
  bytes: number;
  /** sha256 of the body, hex. */
  contentHash: string;
  envelope: Envelope;
  latencyMs: number;
}

export interface SourceClientOptions {
  /** Connections kept alive to the upstream. */
  connections?: number;
  /** Called once per request with its HTTP status (or error kind when there was none) and latency. */
  onRequestEnded?: (status: string, latencyMs: number) => void;
}

/**
 * Talks to one configured source over a keep-alive pool. Redirects are never followed, so the
 * Bearer key cannot leak to another origin.
 */
export class SourceClient {
  private readonly pool: Pool;
  /** The endpoint's origin, and its path with any query of its own, ready for parameters. */
  private readonly origin: string;
  private readonly pathWithQuery: string;
  private readonly headers: Record<string, string>;

  constructor(
    readonly name: string,
    private readonly config: SourceConfig,
    private readonly options: SourceClientOptions = {},
  ) {
    const endpoint = new URL(config.path, config.baseUrl);
    this.origin = endpoint.origin;
    this.pathWithQuery = `${endpoint.pathname}${endpoint.search || '?'}`;
    // headersTimeout and bodyTimeout bound each wait; readBody bounds the whole body.
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 4,
      keepAliveTimeout: 30_000,
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
    });
    this.headers = { authorization: `Bearer ${config.apiKey}`, accept: 'application/json', 'content-type': 'application/json' };
  }

  private pathFor(params: Record<string, string>): string {
    const search = new URLSearchParams(params).toString();
    return this.pathWithQuery.endsWith('?') ? `${this.pathWithQuery}${search}` : `${this.pathWithQuery}&${search}`;
  }

  /** One request, no retries: returns a success envelope or throws a classified UpstreamError. */
  async fetchPage(params: Record<string, string>): Promise<FetchedPage> {
    const report = this.options.onRequestEnded;
    if (!report) return this.request(params);
    const started = performance.now();
    try {
      const page = await this.request(params);
      report('200', page.latencyMs);
      return page;
    } catch (error) {
      const status = error instanceof UpstreamError ? (error.status === undefined ? error.kind : String(error.status)) : 'error';
      report(status, performance.now() - started);
      throw error;
    }
  }

  private async request(params: Record<string, string>): Promise<FetchedPage> {
    const path = this.pathFor(params);
    const started = performance.now();
    let response: Awaited<ReturnType<Pool['request']>>;
    try {
      response = await this.pool.request({ method: 'GET', path, headers: this.headers });
    } catch (error) {
      throw this.transportError(error);
    }
    const { statusCode, headers, body } = response;
    let raw: string;
    try {
      raw = await this.readBody(body, headers['content-length'], started + this.config.timeoutMs);
    } catch (error) {
      body.destroy();
      if (error instanceof UpstreamError) throw error;
      throw this.transportError(error, statusCode);
    }
    const latencyMs = performance.now() - started;
    if (statusCode < 200 || statusCode >= 300) throw this.statusError(statusCode, headers, raw);
    // Postgres's jsonb cannot hold U+0000; dropping it here keeps such a page storable.
    if (raw.includes('\\u0000')) raw = withoutNulChars(raw);
    const envelope = parseEnvelope(raw, this.name, statusCode);
    if (envelope.status !== 'success') {
      const error = envelopeError(envelope, this.config.errors, this.name, statusCode, raw);
      throw error;
    }
    return {
      url: `${this.origin}${path}`,
      raw,
      bytes: Buffer.byteLength(raw),
      contentHash: createHash('sha256').update(raw).digest('hex'),
      envelope,
      latencyMs,
    };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** The body as text; a body still arriving at `deadline` (performance.now() time) is a timeout, however steadily it trickles. */
  private async readBody(body: AsyncIterable<Buffer> & { destroy(): void }, contentLength: string | string[] | undefined, deadline: number): Promise<string> {
    const limit = this.config.maxResponseBytes;
    if (typeof contentLength === 'string' && Number(contentLength) > limit) {
      throw new UpstreamError('too_large', `response of ${contentLength} bytes exceeds maxResponseBytes (${limit})`, { source: this.name });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) throw new UpstreamError('too_large', `response exceeds maxResponseBytes (${limit})`, { source: this.name });
      if (performance.now() > deadline) throw this.timeoutError();
      chunks.push(chunk);
    }
    return (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
  }

  private statusError(status: number, headers: Record<string, string | string[] | undefined>, raw: string): UpstreamError {
    let upstreamMessage: string | undefined;
    try {
      upstreamMessage = parseEnvelope(raw, this.name, status).message || undefined;
    } catch {
      upstreamMessage = undefined;
    }
    const details = { source: this.name, status, upstreamMessage, excerpt: excerptOf(raw), retryAfterMs: parseRetryAfter(headers['retry-after']) };
    if (status === 429) return new UpstreamError('rate_limited', 'rate limited', details);
    if (status >= 500) return new UpstreamError('temporary', 'server error', details);
    if (status === 401 || status === 403) return new UpstreamError('auth', 'the API key was refused', details);
    if (status >= 300 && status < 400) return new UpstreamError('redirect', `redirect to ${String(headers.location)} not followed`, details);
    return new UpstreamError('rejected', 'request rejected', details);
  }

  private timeoutError(details: ConstructorParameters<typeof UpstreamError>[2] = { source: this.name }): UpstreamError {
    return new UpstreamError('timeout', `no complete response within ${this.config.timeoutMs} ms`, details);
  }

  private transportError(error: unknown, status?: number): UpstreamError {
    const details = { source: this.name, status, cause: error };
    const name = (error as Error | undefined)?.name;
    if (
      name === 'TimeoutError' ||
      name === 'AbortError' ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError
    ) {
      return this.timeoutError(details);
    }
    return new UpstreamError('network', `request failed: ${(error as Error).message}`, details);
  }
}
