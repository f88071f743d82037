import { SpanKind, trace } from '@opentelemetry/api';
import { inSpan, serverAttributes } from '../observability/tracing/spans.js';

/**
 * One upstream request in a client span, named and described as OpenTelemetry's HTTP client
 * conventions say (`http.request.method`, `server.address`, `server.port`; `url.full`,
 * `http.response.status_code` and `http.response.body.size` once known, see describeResponse).
 * A failure sets `error.type` to the UpstreamError's kind.
 */
export function inRequestSpan<T>(attributes: RequestSpanAttributes, request: () => Promise<T>): Promise<T> {
  return inSpan('GET', { kind: SpanKind.CLIENT, attributes }, () => request());
}

/** The attributes every request to `origin` starts its span with: a client's, made once. */
export type RequestSpanAttributes = ReturnType<typeof requestSpanAttributes>;

export function requestSpanAttributes(origin: string) {
  return { 'http.request.method': 'GET', ...serverAttributes(origin) };
}

/** What the request span learns of the response: its URL as shown (keys masked), status and size. */
export function describeResponse(shownUrl: string, status: number, bytes: number): void {
  trace.getActiveSpan()?.setAttributes({ 'url.full': shownUrl, 'http.response.status_code': status, 'http.response.body.size': bytes });
}
