import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../../src/config/schema.js';
import { webhookSchema } from '../../../src/config/worker/webhookSchema.js';
import { SourceClient } from '../../../src/http/SourceClient.js';
import { postNotice } from '../../../src/notices/postNotice.js';
import { inSpan, recordedTraceId } from '../../../src/observability/tracing/spans.js';
import { answerJson, startTestReceiver, type TestReceiver } from '../../support/testReceiver.js';

// No tracing started in this file's process: what a worker without OTEL_* variables does.
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startTestReceiver();
  receiver.answer = answerJson({ status: 'success', data: { items: [] } });
});
beforeEach(() => (receiver.received.length = 0));
afterAll(() => receiver.close());

describe('tracing off', () => {
  it('records no trace id in a span', async () => {
    expect(await inSpan('run', {}, (span) => Promise.resolve(recordedTraceId(span)))).toBeUndefined();
  });

  it('sends no traceparent, even to a source that asks for it', async () => {
    const upstream = new SourceClient('upstream', sourceSchema.parse({ baseUrl: receiver.baseUrl, apiKey: 'k-untraced-0123', path: '/api', sendTraceparent: true }));
    await upstream.fetchPage({ page: '1' });
    await upstream.close();
    await postNotice(webhookSchema.parse({ baseUrl: receiver.baseUrl, uuid: randomUUID() }), 'msg_1', '{}', AbortSignal.timeout(5_000));
    expect(receiver.received.map((request) => request.headers.traceparent)).toEqual([undefined, undefined]);
  });
});
