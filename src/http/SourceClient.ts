import type { IncomingHttpHeaders } from 'node:http';
import { errors as undiciErrors, Pool, type Dispatcher } from 'undici';
import { authSecrets } from '../config/sources/authSchema.js';
import type { SourceConfig } from '../config/schema.js';
import { isSecretParam, MASKED, maskedParams } from '../config/sources/secretParams.js';
import { SecretScrubber, type ScrubTally } from '../observability/SecretScrubber.js';
import { requestAuthOf } from './auth/authStyles.js';
import type { RequestAuth } from './auth/RequestAuth.js';
import { codeKindOf, envelopeError, excerptOf, readResponse, refuseDeepBody, warningOf, type Envelope, type ReadResponse } from './envelope.js';
import type { ResponseShape } from './responses/responseShape.js';
import { responseShapeOf } from './responses/responsePresets.js';
import { parseRetryAfter } from './retryAfter.js';
import { storedBody } from './storedBody.js';
import { UpstreamError } from './UpstreamError.js';
import { userAgentOf } from './userAgent.js';
import { describeResponse, inRequestSpan, requestSpanAttributes, type RequestSpanAttributes } from './requestSpan.js';
import { withTraceparent } from '../observability/tracing/spans.js';

/** What to request: the query's parameters, or a next-page URL a response gave (which then carries them). */
export interface PageRequest {
  params: Readonly<Record<string, string>>;
  /** Absolute, or relative to the endpoint; refused unless on `baseUrl`'s origin. */
  nextUrl?: string;
}

/** One page as received: the raw body is kept so it is stored without re-serialising. */
export interface FetchedPage {
  /** Request URL, a key in its query string masked: it is stored and logged. */
  url: string;
  /** The response's `Link` header, for paging by `rel="next"`. */
  link: string | undefined;
  /**
   * The body as it is stored: the bytes received when they are valid UTF-8 and hold no secret (the
   * common case: sent to Postgres as they are, never encoded again), else the text decoded and
   * scrubbed.
   */
  raw: Buffer | string;
  bytes: number;
  /** sha256 of the body, hex. */
  contentHash: string;
  envelope: Envelope;
  latencyMs: number;
  /** Occurrences of a secret the upstream echoed, scrubbed out of what it sent. */
  secretsScrubbed: number;
  /** What a success body said beside its data (see warningOf); absent for none. */
  warning?: string;
}

/** Keep-alive connections to an upstream unless the client is told otherwise (SourceRegistry sizes them for a worker). */
export const DEFAULT_SOURCE_CONNECTIONS = 4;

export interface SourceClientOptions {
  /** Most connections kept alive to the upstream (default DEFAULT_SOURCE_CONNECTIONS). */
  connections?: number;
  /** Called once per request with its HTTP status (or error kind when there was none) and latency. */
  onRequestEnded?: (status: string, latencyMs: number) => void;
  /** Removes every configured secret from upstream text; by default, this source's own key. */
  secrets?: SecretScrubber;
}

/**
 * Talks to one configured source over a keep-alive pool, with its auth style and response shape.
 * Redirects are never followed and every request stays on `baseUrl`'s origin, so no key leaves it.
 */
export class SourceClient {
  private readonly pool: Pool;
  /** `baseUrl`'s origin, the only one requests (and the key) go to. */
  private readonly origin: string;
  /** The endpoint's URL, and its path with any query of its own, ready for parameters. */
  private readonly endpoint: string;
  private readonly pathWithQuery: string;
  private readonly headers: Record<string, string>;
  private readonly auth: RequestAuth;
  /** The auth's query parameters with their values masked, and whether there are any. */
  private readonly maskedAuthParams: Record<string, string>;
  private readonly authInQuery: boolean;
  private readonly shape: ResponseShape;
  private readonly secrets: SecretScrubber;
  private readonly spanAttributes: RequestSpanAttributes;

  constructor(
    readonly name: string,
    private readonly config: SourceConfig,
    private readonly options: SourceClientOptions = {},
  ) {
    this.origin = new URL(config.baseUrl).origin;
    this.spanAttributes = requestSpanAttributes(this.origin);
    this.secrets = options.secrets ?? new SecretScrubber(authSecrets(config.auth));
    this.auth = requestAuthOf(config.auth);
    this.maskedAuthParams = Object.fromEntries(Object.keys(this.auth.queryParams).map((name) => [name, MASKED]));
    this.authInQuery = Object.keys(this.auth.queryParams).length > 0;
    this.shape = responseShapeOf(config.response, config.errors);
    const endpoint = this.onOrigin(config.path, config.baseUrl);
    this.endpoint = endpoint.href;
    this.pathWithQuery = `${endpoint.pathname}${endpoint.search || '?'}`;
    // The deadline in receive() bounds every wait, so undici's per-wait timers (0: off) would only
    // add timers per request and per chunk. The connect timeout drops a connection attempt the
    // deadline has already given up on.
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? DEFAULT_SOURCE_CONNECTIONS,
      keepAliveTimeout: 30_000,
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { timeout: config.timeoutMs },
    });
    this.headers = { ...this.auth.headers, accept: 'application/json', 'content-type': 'application/json', 'user-agent': userAgentOf(config.userAgent) };
  }

  private pathFor(params: Readonly<Record<string, string>>): string {
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

  /**
   * The path to send (with the key, when it goes in the query string) and the one to show (the key
   * and any credential put in params masked).
   */
  private pathsOf(request: PageRequest): { sent: string; shown: string } {
    const secretParams = Object.fromEntries(Object.entries(request.params).filter(([name]) => isSecretParam(name)));
    const masked = this.authInQuery || Object.keys(secretParams).length > 0;
    if (request.nextUrl === undefined) {
      const sent = this.pathFor(this.authInQuery ? { ...request.params, ...this.auth.queryParams } : request.params);
      return { sent, shown: masked ? this.pathFor({ ...maskedParams(request.params), ...this.maskedAuthParams }) : sent };
    }
    // A next-page URL a response gave: on baseUrl's origin or refused; its own copy of a key (masked
    // when the body was scrubbed) replaced by the key.
    const url = new URL(this.sameOriginPath(request.nextUrl), this.origin);
    const withParams = (params: Readonly<Record<string, string>>) => {
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return `${url.pathname}${url.search}`;
    };
    const sent = withParams({ ...secretParams, ...this.auth.queryParams });
    return { sent, shown: masked ? withParams({ ...maskedParams(secretParams), ...this.maskedAuthParams }) : sent };
  }

  /** `target` resolved against `base`, refused unless on `baseUrl`'s origin: `//host`, `/\host` or an absolute URL can leave it, and the key goes with every request. */
  private onOrigin(target: string, base: string): URL {
    const url = URL.canParse(target, base) ? new URL(target, base) : undefined;
    if (url?.origin === this.origin) return url;
    const quoted = JSON.stringify(excerptOf(this.secrets.scrub(target)));
    const reason = url ? `it leads to ${this.secrets.scrub(url.origin)}, not to baseUrl's origin ${this.origin}` : 'it is not a URL';
    throw new UpstreamError('rejected', `refused to request ${quoted}: ${reason}`, { source: this.name });
  }

  /**
   * One request, no retries: returns a success envelope or throws a classified UpstreamError.
   * With `nextUrl` (a next page a response gave), that URL is requested and `params` are not sent.
   */
  async fetchPage(params: Readonly<Record<string, string>>, nextUrl?: string): Promise<FetchedPage> {
    const request: PageRequest = nextUrl === undefined ? { params } : { params, nextUrl };
    const report = this.options.onRequestEnded;
    const started = performance.now();
    try {
      const page = await inRequestSpan(this.spanAttributes, () => this.request(request));
      report?.('200', page.latencyMs);
      return page;
    } catch (error) {
      report?.(error instanceof UpstreamError ? (error.status === undefined ? error.kind : String(error.status)) : 'error', performance.now() - started);
      throw error;
    }
  }

  private async request(request: PageRequest): Promise<FetchedPage> {
    const paths = this.pathsOf(request);
    const started = performance.now();
    const { statusCode, headers, body } = await this.receive(paths.sent);
    const latencyMs = performance.now() - started;
    describeResponse(`${this.origin}${paths.shown}`, statusCode, body.length);
    const text = body.toString('utf8');
    // An upstream may echo the key (an error quoting the request, a record): nothing it says keeps it.
    const tally: ScrubTally = { replaced: 0 };
    const raw = this.secrets.scrubJson(text, tally);
    let read: ReadResponse;
    try {
      if (statusCode < 200 || statusCode >= 300) throw this.statusError(statusCode, headers, raw, tally);
      refuseDeepBody(raw, this.name, `${this.origin}${paths.shown}`, statusCode);
      read = readResponse(raw, this.shape, this.name, statusCode);
      // Decoded, the message may show a secret its JSON escaped past the scrub of the raw text.
      read.envelope.message = this.secrets.scrub(read.envelope.message, tally);
      if (!read.ok) throw envelopeError(read, this.shape, this.config.errors, this.name, statusCode, raw, (text) => this.secrets.scrubShown(text, tally));
    } catch (error) {
      if (error instanceof UpstreamError) error.secretsScrubbed = tally.replaced;
      throw error;
    }
    const envelope: Envelope = read.envelope;
    const link = headers.link;
    return {
      url: `${this.origin}${paths.shown}`,
      // It may carry a key back (a next URL with the request's query), and it reaches the checkpoint.
      link: link === undefined ? undefined : this.secrets.scrub(Array.isArray(link) ? link.join(', ') : link, tally),
      ...storedBody(body, text, raw),
      envelope,
      latencyMs,
      secretsScrubbed: tally.replaced,
      warning: warningOf(read, this.shape),
    };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /**
   * Status, headers and whole body of a GET, all within one deadline `timeoutMs` from now: its
   * timer aborts whatever is still under way, connecting, awaiting headers or a trickling body.
   */
  private async receive(path: string): Promise<{ statusCode: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.config.timeoutMs);
    let response: Dispatcher.ResponseData | undefined;
    try {
      response = await this.send(path, deadline.signal);
      const body = await this.readBody(response.body, response.headers['content-length']);
      return { statusCode: response.statusCode, headers: response.headers, body };
    } catch (error) {
      // A body left half read would hold its connection; destroyed, undici closes that socket. Destroyed
      // before its end, it emits an abort error that nothing else waits for: without a listener, an uncaught exception.
      response?.body.on('error', () => undefined).destroy();
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
      const headers = this.config.sendTraceparent ? withTraceparent(this.headers) : this.headers;
      this.pool.request({ method: 'GET', path, headers, signal: deadline }, (error, response) => {
        deadline.removeEventListener('abort', onDeadline);
        if (error) reject(error);
        else resolve(response);
      });
    });
  }

  /** The body's bytes, refused once past maxResponseBytes; the deadline in receive() bounds how long it may take. */
  private async readBody(body: AsyncIterable<Buffer> & { destroy(): void }, contentLength: string | string[] | undefined): Promise<Buffer> {
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
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  }

  /** An error for a non-2xx answer: by the body's error code when the shape knows it (Last.fm's 403 with 29), else by HTTP status. */
  private statusError(status: number, headers: Record<string, string | string[] | undefined>, raw: string, tally: ScrubTally): UpstreamError {
    let read: ReadResponse | undefined;
    try {
      read = readResponse(raw, this.shape, this.name, status);
    } catch {
      read = undefined;
    }
    const upstreamMessage = read ? this.secrets.scrub(read.envelope.message, tally) || undefined : undefined;
    // Scrubbed whole, then cut: cut first, a secret across the cut would keep its first part.
    const details = { source: this.name, status, upstreamMessage, excerpt: excerptOf(this.secrets.scrubShown(raw, tally)), retryAfterMs: parseRetryAfter(headers['retry-after']) };
    const byCode = read && codeKindOf(read, this.shape);
    if (byCode) return new UpstreamError(byCode, `error code ${read!.errorCode}`, details);
    if (status === 429) return new UpstreamError('rate_limited', 'rate limited', details);
    if (status >= 500) return new UpstreamError('temporary', 'server error', details);
    if (status === 401 || status === 403) return new UpstreamError('auth', 'the API key was refused', details);
    if (status >= 300 && status < 400) return new UpstreamError('redirect', `redirect to ${this.secrets.scrubShown(String(headers.location), tally)} not followed`, details);
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
