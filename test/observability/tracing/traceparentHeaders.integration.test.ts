import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../../src/config/schema.js';
import { webhookSchema } from '../../../src/config/worker/webhookSchema.js';
import { SourceClient } from '../../../src/http/SourceClient.js';
import { inDeliverySpan } from '../../../src/notices/deliverySpan.js';
import { postNotice } from '../../../src/notices/postNotice.js';
import { inSpan } from '../../../src/observability/tracing/spans.js';
import { traceInMemory } from '../../support/inMemoryTracing.js';
import { answerJson, startTestReceiver, type TestReceiver } from '../../support/testReceiver.js';

const tracing = traceInMemory();
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startTestReceiver();
  receiver.answer = answerJson({ status: 'success', data: { items: [] } });
});
beforeEach(() => {
  receiver.received.length = 0;
  tracing.spans.reset();
});
afterAll(() => receiver.close());

const client = (sendTraceparent: boolean) => new SourceClient('upstream', sourceSchema.parse({ baseUrl: receiver.baseUrl, apiKey: 'k-traceparent-0123', path: '/api', sendTraceparent }));

/** The W3C traceparent of a span as exported: `00-<trace>-<span>-01` (sampled). */
const traceparentOfSpan = (name: string): string => {
  const span = tracing.spans.getFinishedSpans().find((each) => each.name === name)!;
  return `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
};

describe('traceparent on outgoing requests, tracing on', () => {
  it('sends an upstream request its own span\'s traceparent when the source asks for it', async () => {
    const upstream = client(true);
    await inSpan('fetch page', {}, () => upstream.fetchPage({ page: '1' }));
    await upstream.close();
    await tracing.provider.forceFlush();
    expect(receiver.received.map((request) => request.headers.traceparent)).toEqual([traceparentOfSpan('GET')]);
  });

  it('sends an upstream no traceparent by default', async () => {
    const upstream = client(false);
    await inSpan('fetch page', {}, () => upstream.fetchPage({ page: '1' }));
    await upstream.close();
    expect(receiver.received.map((request) => request.headers.traceparent)).toEqual([undefined]);
  });

  it('continues the trace a notice was made in, from its stored traceparent, and sends its attempt\'s', async () => {
    const made = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
    const webhook = webhookSchema.parse({ baseUrl: receiver.baseUrl, uuid: randomUUID() });
    const notice = { id: 'msg_2', run_id: null, tick_id: randomUUID(), body: '{}', traceparent: `00-${made.traceId}-${made.spanId}-01`, attempts: 0, created_at: new Date() };
    await inDeliverySpan(webhook, notice, () => postNotice(webhook, notice.id, notice.body, AbortSignal.timeout(5_000)));
    await tracing.provider.forceFlush();
    const [attempt] = tracing.spans.getFinishedSpans();
    expect(attempt?.spanContext().traceId).toBe(made.traceId);
    expect(attempt?.parentSpanContext?.spanId).toBe(made.spanId);
    expect(receiver.received.map((request) => request.headers.traceparent)).toEqual([traceparentOfSpan('POST')]);
  });

  it('sends a notice its delivery attempt\'s traceparent', async () => {
    const webhook = webhookSchema.parse({ baseUrl: receiver.baseUrl, uuid: randomUUID() });
    await inSpan('POST', {}, () => postNotice(webhook, 'msg_1', '{}', AbortSignal.timeout(5_000)));
    await tracing.provider.forceFlush();
    expect(receiver.received.map((request) => request.headers.traceparent)).toEqual([traceparentOfSpan('POST')]);
  });
});
