import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { SecretScrubber } from '../../../src/observability/SecretScrubber.js';
import { ScrubbingSpanExporter } from '../../../src/observability/tracing/ScrubbingSpanExporter.js';
import { echoedForms } from '../../support/secretEncodings.js';

const SECRET = 'sk-span-5b7d9f1a3c5e7a9b';

/** A span made by a provider of its own, exported through the scrubbing exporter into memory. */
async function exported(make: (span: Span) => void): Promise<string> {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: new ScrubbingSpanExporter(memory, () => [new SecretScrubber([SECRET])]) })] });
  const span = provider.getTracer('test').startSpan(`span of ${SECRET}`);
  make(span);
  span.end();
  await provider.forceFlush();
  return JSON.stringify(memory.getFinishedSpans().map(({ name, attributes, events, status, links }) => ({ name, attributes, events, status, links })));
}

describe('ScrubbingSpanExporter', () => {
  it('exports no form of a secret from a span name, attribute, event or status message', async () => {
    const text = await exported((span) => {
      for (const [index, form] of echoedForms(SECRET).entries()) span.setAttribute(`echo.${index}`, `the upstream said ${form}`);
      span.setAttribute('list', [`a ${SECRET}`, 'b']);
      span.addEvent('retry', { message: `refused ${SECRET}` });
      span.setStatus({ code: SpanStatusCode.ERROR, message: `Invalid API key ${SECRET}` });
    });
    for (const form of echoedForms(SECRET)) expect(text).not.toContain(form);
    expect(text).toContain('Invalid API key ***');
  });

  it('exports a span without secrets as it was', async () => {
    const text = await exported((span) => span.setAttributes({ 'feedsync.page': 3, 'url.full': 'http://127.0.0.1/api?page=3' }));
    expect(JSON.parse(text)).toEqual([expect.objectContaining({ attributes: { 'feedsync.page': 3, 'url.full': 'http://127.0.0.1/api?page=3' } })]);
  });
});
