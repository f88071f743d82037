import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/**
 * Tracing on for this test file's process, its spans kept in memory: the global provider, an
 * async context manager and the W3C propagator, as startTracing sets them. Only for files of an
 * isolated tier (the integration tier): the globals outlive the file.
 */
export function traceInMemory(): { spans: InMemorySpanExporter; provider: TracerProvider } {
  const spans = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return { spans, provider };
}
