import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { errors as undiciErrors, Pool, type Dispatcher } from 'undici';
import type { SourceConfig } from '../config/schema.js';
import { envelopeError, excerptOf, parseEnvelope, type Envelope } from './envelope.js';
import { parseRetryAfter } from './retryAfter.js';
import { UpstreamError } from './UpstreamError.js';
import { SecretScrubber } from '../observability/SecretScrubber.js';

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
  /** Removes every configured secret from upstream text; by default, this source's own key. */
  secrets?: SecretScrubber;
}

/**
 * Talks to one configured source over a keep-alive pool. Redirects are never followed, so the
 * Bearer key cannot leak to another origin.
 */
export class SourceClient {
  private readonly pool: Pool;
  /** `baseUrl`'s origin, the only one requests (and the key) go to. */
  private readonly origin: string;
  /** The endpoint's URL, and its path with any query of its own, ready for parameters. */
  private readonly endpoint: string;
  private readonly pathWithQuery: string;
  private readonly headers: Record<string, string>;
  private readonly secrets: SecretScrubber;

  constructor(
    readonly name: string,
    private readonly config: SourceConfig,
    private readonly options: SourceClientOptions = {},
  ) {
    this.origin = new URL(config.baseUrl).origin;
    this.secrets = options.secrets ?? new SecretScrubber([config.apiKey]);
    const endpoint = this.onOrigin(config.path, config.baseUrl);
    this.endpoint = endpoint.href;
    this.pathWithQuery = `${endpoint.pathname}${endpoint.search || '?'}`;
    // The deadline in receive() bounds every wait, so undici's per-wait timers (0: off) would only
    // add timers per request and per chunk. The connect timeout drops a connection attempt the
    // deadline has already given up on.
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 4,
      keepAliveTimeout: 30_000,
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { timeout: config.timeoutMs },
    });
    this.headers = { authorization: `Bearer ${config.apiKey}`, accept: 'application/json', 'content-type': 'application/json' };
  }

  private pathFor(params: Record<string, string>): string {
    const search = new URLSearchParams(params).toString();
    return this.pathWithQuery.endsWith('?') ? `${this.pathWithQuery}${search}` : `${this.pathWithQuery}&${search}`;
  }

  /**
   * The path and query to request for a next page a response points to (a URL, or a path relative
   * to the endpoint); a non-retryable `rejected` error when it leads off `baseUrl`'s origin.
   */
  sameOriginPath(nextPage: string): string {
    const url = this.onOrigin(nextPage, this.endpoint);
    return `${url.pathname}${url.search}`;
  }

  /** `target` resolved against `base`, refused unless on `baseUrl`'s origin: `//host`, `/\host` or an absolute URL can leave it, and the key goes with every request. */
  private onOrigin(target: string, base: string): URL {
    const url = URL.canParse(target, base) ? new URL(target, base) : undefined;
    if (url?.origin === this.origin) return url;
    const quoted = JSON.stringify(excerptOf(this.secrets.scrub(target)));
    const reason = url ? `it leads to ${this.secrets.scrub(url.origin)}, not to baseUrl's origin ${this.origin}` : 'it is not a URL';
    throw new UpstreamError('rejected', `refused to request ${quoted}: ${reason}`, { source: this.name });
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
    const { statusCode, headers, body } = await this.receive(path);
    const latencyMs = performance.now() - started;
    // An upstream may echo the key (an error quoting the request): nothing it says keeps it.
    const raw = this.secrets.scrub(body);
    if (statusCode < 200 || statusCode >= 300) throw this.statusError(statusCode, headers, raw);
    const envelope = parseEnvelope(raw, this.name, statusCode);
    // Decoded, the message may show a secret its JSON escaped past the scrub of the raw text.
    envelope.message = this.secrets.scrub(envelope.message);
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

  /**
   * Status, headers and whole body of a GET, all within one deadline `timeoutMs` from now: its
   * timer aborts whatever is still under way, connecting, awaiting headers or a trickling body.
   */
  private async receive(path: string): Promise<{ statusCode: number; headers: IncomingHttpHeaders; body: string }> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.config.timeoutMs);
    let response: Dispatcher.ResponseData | undefined;
    try {
      response = await this.send(path, deadline.signal);
      const body = await this.readBody(response.body, response.headers['content-length']);
      return { statusCode: response.statusCode, headers: response.headers, body };
    } catch (error) {
      // A body left half read would hold its connection; destroyed, undici closes that socket.
      response?.body.destroy();
      throw error instanceof UpstreamError ? error : this.transportError(error, deadline.signal.aborted, response?.statusCode);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The response to a GET, or a timeout once the deadline passes. undici heeds an abort only when
   * the request gets a connected socket (nodejs/undici#386), so a request still connecting at the
   * deadline is let go here; undici drops it when that attempt ends.
   */
  private send(path: string, deadline: AbortSignal): Promise<Dispatcher.ResponseData> {
    return new Promise((resolve, reject) => {
      const onDeadline = () => reject(this.timeoutError());
      deadline.addEventListener('abort', onDeadline, { once: true });
      this.pool.request({ method: 'GET', path, headers: this.headers, signal: deadline }, (error, response) => {
        deadline.removeEventListener('abort', onDeadline);
        if (error) reject(error);
        else resolve(response);
      });
    });
  }

  /** The body as text, refused once past maxResponseBytes; the deadline in receive() bounds how long it may take. */
  private async readBody(body: AsyncIterable<Buffer> & { destroy(): void }, contentLength: string | string[] | undefined): Promise<string> {
    const limit = this.config.maxResponseBytes;
    if (typeof contentLength === 'string' && Number(contentLength) > limit) {
      throw new UpstreamError('too_large', `response of ${contentLength} bytes exceeds maxResponseBytes (${limit})`, { source: this.name });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) throw new UpstreamError('too_large', `response exceeds maxResponseBytes (${limit})`, { source: this.name });
      chunks.push(chunk);
    }
    return (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
  }

  private statusError(status: number, headers: Record<string, string | string[] | undefined>, raw: string): UpstreamError {
    let upstreamMessage: string | undefined;
    try {
      upstreamMessage = this.secrets.scrub(parseEnvelope(raw, this.name, status).message) || undefined;
    } catch {
      upstreamMessage = undefined;
    }
    const details = { source: this.name, status, upstreamMessage, excerpt: excerptOf(raw), retryAfterMs: parseRetryAfter(headers['retry-after']) };
    if (status === 429) return new UpstreamError('rate_limited', 'rate limited', details);
    if (status >= 500) return new UpstreamError('temporary', 'server error', details);
    if (status === 401 || status === 403) return new UpstreamError('auth', 'the API key was refused', details);
    if (status >= 300 && status < 400) return new UpstreamError('redirect', `redirect to ${this.secrets.scrub(String(headers.location))} not followed`, details);
    return new UpstreamError('rejected', 'request rejected', details);
  }

  private timeoutError(details: ConstructorParameters<typeof UpstreamError>[2] = { source: this.name }): UpstreamError {
    return new UpstreamError('timeout', `no complete response within ${this.config.timeoutMs} ms`, details);
  }

  /** A failure with no HTTP answer; after the deadline, whatever broke (say, an aborted body) broke because of it. */
  private transportError(error: unknown, deadlinePassed: boolean, status?: number): UpstreamError {
    const details = { source: this.name, status, cause: error };
    // undici's connect timeout is timeoutMs on a coarse clock, so it may end an attempt just before the deadline.
    if (deadlinePassed || error instanceof undiciErrors.ConnectTimeoutError) return this.timeoutError(details);
    return new UpstreamError('network', `request failed: ${(error as Error).message}`, details);
  }
}
