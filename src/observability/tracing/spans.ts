import { context, propagation, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span, type SpanOptions } from '@opentelemetry/api';

/**
 * feedsync's tracer. Until tracing starts (see startTracing) it is the API's no-op: spans cost an
 * object and a call, and nothing is recorded or sent.
 */
export const tracer = trace.getTracer('feedsync');

/** Marks a span failed with the error's kind (`error.type`) and message; the message is scrubbed on export. */
export function failSpan(span: Span, error: unknown): void {
  const kind = (error as { kind?: unknown }).kind;
  span.setAttribute('error.type', typeof kind === 'string' ? kind : error instanceof Error ? error.name : 'error');
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Runs `work` in a span of its own, the active one meanwhile; a throw fails the span and goes on. */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The W3C `traceparent` of the active span (or of `at`); undefined while tracing is off or nothing is traced. */
export function traceparentOf(at: Context = context.active()): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(at, carrier);
  return carrier.traceparent;
}

/** `server.address` and `server.port` of a URL, as the HTTP client conventions name them. */
export function serverAttributes(url: string): { 'server.address': string; 'server.port': number } {
  const parsed = new URL(url);
  return { 'server.address': parsed.hostname, 'server.port': parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port) };
}

/** The headers with the active span's W3C `traceparent` added; as they are when nothing is traced. */
export function withTraceparent(headers: Record<string, string>): Record<string, string> {
  const traceparent = traceparentOf();
  return traceparent === undefined ? headers : { ...headers, traceparent };
}

/** The trace id a W3C `traceparent` names (`00-<trace id>-<span id>-<flags>`). */
export function traceIdOf(traceparent: string): string | undefined {
  return traceparent.split('-')[1];
}

/** The context a stored `traceparent` continues; the root context without one. */
export function contextOf(traceparent: string | null | undefined): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** The trace id of a span being recorded; undefined when it is not (tracing off, or not sampled). */
export function recordedTraceId(span: Span | undefined = trace.getActiveSpan()): string | undefined {
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}
