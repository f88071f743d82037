import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SecretScrubber } from '../SecretScrubber.js';
import { ScrubbingSpanExporter } from './ScrubbingSpanExporter.js';
import { readTracingEnv, tracingAsked } from './tracingEnv.js';

/** The process's tracer provider, once started; tracing is process-wide, as the OpenTelemetry API is. */
let provider: TracerProvider | undefined;
/** Every runtime's scrubber: a span may carry any of their secrets. */
const scrubbers: SecretScrubber[] = [];

/**
 * Starts exporting spans over OTLP when the standard variables ask for it (see tracingAsked), once
 * a process; each call adds the caller's secrets to what every exported span is scrubbed of.
 * Resource: `service.name` feedsync (OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override),
 * `service.version`. Propagation: W3C trace context and baggage. Throws on a variable it cannot
 * read, naming it.
 */
export function startTracing(secrets: SecretScrubber, version: string): void {
  if (!tracingAsked()) return;
  if (!scrubbers.includes(secrets)) scrubbers.push(secrets);
  if (provider) return;
  const { protocol, sampler } = readTracingEnv();
  // Endpoint, headers, timeout and compression: each exporter reads its OTEL_EXPORTER_OTLP_* variables.
  const exporter = protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const resource = resourceFromAttributes({ 'service.name': 'feedsync', 'service.version': version }).merge(detectResources({ detectors: [envDetector] }));
  provider = new TracerProvider({ sampler, resource, spanProcessors: [new BatchSpanProcessor({ exporter: new ScrubbingSpanExporter(exporter, () => scrubbers) })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(provider);
}

/** Sends the spans ended so far (a runtime closing, a worker drained on SIGTERM); nothing while tracing is off. */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}
