import type { Attributes } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { SecretScrubber } from '../SecretScrubber.js';

/**
 * Exports spans with every known secret, in every form, replaced in their names, attributes,
 * events and status messages: a span is a log line that leaves the process, and an upstream's
 * error quoted into one may echo a key. The scrubbers are the runtimes' own (see tracedSecrets).
 */
export class ScrubbingSpanExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly scrubbers: () => readonly SecretScrubber[],
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const scrub = (text: string): string => this.scrubbers().reduce((scrubbed, scrubber) => scrubber.scrub(scrubbed), text);
    this.inner.export(spans.map((span) => scrubbedSpan(span, scrub)), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function scrubbedAttributes(attributes: Attributes | undefined, scrub: (text: string) => string): Attributes {
  const scrubbed: Attributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    const texts: unknown = value;
    if (typeof texts === 'string') scrubbed[name] = scrub(texts);
    else if (Array.isArray(texts)) scrubbed[name] = texts.map((each: unknown) => (typeof each === 'string' ? scrub(each) : each));
    else scrubbed[name] = value;
  }
  return scrubbed;
}

/** A copy of the span with its texts scrubbed; the recorded span itself is read-only. */
function scrubbedSpan(span: ReadableSpan, scrub: (text: string) => string): ReadableSpan {
  return {
    name: scrub(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message === undefined ? span.status : { ...span.status, message: scrub(span.status.message) },
    attributes: scrubbedAttributes(span.attributes, scrub),
    links: span.links.map((link) => ({ ...link, attributes: scrubbedAttributes(link.attributes, scrub) })),
    events: span.events.map((event) => ({ ...event, name: scrub(event.name), attributes: scrubbedAttributes(event.attributes, scrub) })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}
