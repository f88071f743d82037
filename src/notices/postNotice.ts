import { request } from 'undici';
import type { WebhookConfig } from '../config/schema.js';
import { parseRetryAfter } from '../http/retryAfter.js';
import { webhookHeaders } from './signNotice.js';

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
 * The timeout is undici's own, per phase: no answer within `timeoutMs`, or a body that stalls as long.
 */
export async function postNotice(webhook: WebhookConfig, id: string, body: string): Promise<DeliveryAttempt> {
  const url = `${webhook.baseUrl.replace(/\/+$/, '')}/${webhook.uuid}`;
  const started = performance.now();
  try {
    const response = await request(url, {
      method: 'POST',
      headers: webhookHeaders(id, body, webhook.secret),
      body,
      headersTimeout: webhook.timeoutMs,
      bodyTimeout: webhook.timeoutMs,
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
    const message = typeof code === 'string' && TIMEOUT_CODES.has(code) ? `no response within ${webhook.timeoutMs} ms` : (error as Error).message;
    return { delivered: false, httpStatus: null, latencyMs: Math.round(performance.now() - started), error: message, retryAfterMs: undefined, gone: false };
  }
}
