import { request } from 'undici';
import type { WebhookConfig } from '../config/worker/webhookSchema.js';
import { parseRetryAfter } from '../http/retryAfter.js';
import { webhookHeaders } from './signNotice.js';
import { withTraceparent } from '../observability/tracing/spans.js';

export interface DeliveryAttempt {
  delivered: boolean;
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  retryAfterMs: number | undefined;
  /** 410 Gone: the receiver says the endpoint will never accept again. */
  gone: boolean;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * One POST of a notice; 2xx is delivered, everything else (3xx included, never followed) is not.
 * `deadline` ends the attempt whatever the receiver does (a body trickling in forever included);
 * undici's own timeouts end it sooner when the receiver stalls for `timeoutMs`.
 */
export async function postNotice(webhook: WebhookConfig, id: string, body: string, deadline: AbortSignal): Promise<DeliveryAttempt> {
  const url = `${webhook.baseUrl.replace(/\/+$/, '')}/${webhook.uuid}`;
  const started = performance.now();
  try {
    const response = await request(url, {
      method: 'POST',
      // The attempt's span (see inDeliverySpan) continues in a receiver that traces.
      headers: withTraceparent(webhookHeaders(id, body, webhook.secret)),
      body,
      headersTimeout: webhook.timeoutMs,
      bodyTimeout: webhook.timeoutMs,
      signal: deadline,
    });
    await response.body.dump();
    const delivered = response.statusCode >= 200 && response.statusCode < 300;
    return {
      delivered,
      httpStatus: response.statusCode,
      latencyMs: Math.round(performance.now() - started),
      error: delivered ? null : `HTTP ${response.statusCode}`,
      retryAfterMs: parseRetryAfter(response.headers['retry-after']),
      gone: response.statusCode === 410,
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const timedOut = deadline.aborted || (typeof code === 'string' && TIMEOUT_CODES.has(code));
    const message = timedOut ? `no response within ${webhook.timeoutMs} ms` : (error as Error).message;
    return { delivered: false, httpStatus: null, latencyMs: Math.round(performance.now() - started), error: message, retryAfterMs: undefined, gone: false };
  }
}
