import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { WebhookConfig } from '../config/worker/webhookSchema.js';
import { contextOf, inSpan, serverAttributes } from '../observability/tracing/spans.js';
import type { DeliveryAttempt } from './postNotice.js';
import type { LeasedNoticeRow } from './statements/leasedNotice.js';

/**
 * One delivery attempt of a notice in a client span that continues the trace the notice was made
 * in (its run's, or its tick's): a notice delivered hours later, by another process, still shows
 * in the trace of what it reports. The webhook's URL is left out: its UUID is the receiver's address.
 */
export function inDeliverySpan(webhook: WebhookConfig, notice: LeasedNoticeRow, post: () => Promise<DeliveryAttempt>): Promise<DeliveryAttempt> {
  const attributes = {
    'http.request.method': 'POST',
    ...serverAttributes(webhook.baseUrl),
    'feedsync.notice.id': notice.id,
    'feedsync.notice.attempt': notice.attempts + 1,
  };
  return context.with(contextOf(notice.traceparent), () =>
    inSpan('POST', { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const attempt = await post();
      if (attempt.httpStatus !== null) span.setAttribute('http.response.status_code', attempt.httpStatus);
      if (!attempt.delivered) {
        span.setAttribute('error.type', attempt.httpStatus === null ? 'no_response' : String(attempt.httpStatus));
        span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.error ?? 'not delivered' });
      }
      return attempt;
    }),
  );
}
